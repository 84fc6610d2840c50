import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startTurnTracer } from './start-turn-tracer.ts';
import { readTracingSettings } from './tracing-settings.ts';
import { noTurnTracer } from './turn-tracer.ts';

describe('readTracingSettings', () => {
  it('is off without an endpoint, or with OTEL_SDK_DISABLED=true', () => {
    expect(readTracingSettings({})).toEqual({ ok: true, settings: null });
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toEqual({
      ok: true,
      settings: null,
    });
    expect(
      readTracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toEqual({ ok: true, settings: null });
  });

  it('appends v1/traces to the base endpoint and takes the traces endpoint as it is, before it', () => {
    const base = (value: string) => readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: value });
    expect(base('http://collector:4318')).toEqual({
      ok: true,
      settings: { tracesUrl: 'http://collector:4318/v1/traces', captureContent: false },
    });
    expect(base('https://otel.example/ingest/')).toMatchObject({
      settings: { tracesUrl: 'https://otel.example/ingest/v1/traces' },
    });
    expect(
      readTracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom',
        FORJA_OTEL_CAPTURE_CONTENT: 'TRUE',
      }),
    ).toEqual({
      ok: true,
      settings: { tracesUrl: 'http://collector:4318/custom', captureContent: true },
    });
  });

  it('refuses a value that is not an http(s) URL, naming the variable and never repeating the value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
        fc
          .string({ minLength: 1 })
          .filter((value) => value.trim() !== '' && !/^\s*https?:/i.test(value)),
        (variable, value) => {
          const secret = `${value}s3cr3t`;
          const read = readTracingSettings({ [variable]: secret });
          expect(read.ok).toBe(false);
          if (read.ok) return;
          expect(read.message).toContain(variable);
          expect(read.message).not.toContain('s3cr3t');
        },
      ),
    );
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toEqual({
      ok: false,
      message:
        'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (an OTLP/HTTP endpoint)',
    });
  });

  it('takes only true or false for the switches', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('FORJA_OTEL_CAPTURE_CONTENT', 'OTEL_SDK_DISABLED'),
        fc.string().filter((value) => !['', 'true', 'false'].includes(value.trim().toLowerCase())),
        (variable, value) => {
          expect(readTracingSettings({ [variable]: value })).toEqual({
            ok: false,
            message: `${variable} must be true or false`,
          });
        },
      ),
    );
  });
});

describe('startTurnTracer', () => {
  it('without settings is the no-op tracer: no SDK is started', async () => {
    const started = await startTurnTracer(null, '0.0.0', () => {});
    expect(started.tracer).toBe(noTurnTracer);
    const result = await started.tracer.turn(
      { projectId: 'p', sessionId: 's', agent: 'a' },
      async (trace) => ({
        status: 'completed',
        tool: await trace.tool({ turnId: 't', id: 'c', name: 'n' }, async () => ({
          ok: true,
          result: 'r',
        })),
      }),
    );
    expect(result).toEqual({ status: 'completed', tool: { ok: true, result: 'r' } });
  });
});
