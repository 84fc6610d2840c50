import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkRequestOrigin,
  isLoopbackHost,
  type NetworkPolicy,
  type RequestFacts,
} from './request-origin-rule.ts';

const loopback: NetworkPolicy = { listenHost: '127.0.0.1', port: 4321, publicUrls: [] };
const team: NetworkPolicy = {
  listenHost: '0.0.0.0',
  port: 4321,
  publicUrls: [new URL('https://forja.example.com')],
};
const request = (facts: Partial<RequestFacts>): RequestFacts => ({
  method: 'GET',
  host: undefined,
  origin: undefined,
  secFetchSite: undefined,
  ...facts,
});
const OWN_HOSTS = ['127.0.0.1:4321', 'localhost:4321', '[::1]:4321', 'LOCALHOST:4321'];
const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'];

describe('the Host and Origin rule', () => {
  it('lets in the loopback names with the listening port, and requests without the headers (curl, in-process)', () => {
    for (const host of OWN_HOSTS)
      expect(checkRequestOrigin(request({ host }), loopback)).toBeNull();
    expect(checkRequestOrigin(request({ method: 'POST' }), loopback)).toBeNull();
    expect(
      checkRequestOrigin(request({ host: '127.0.0.1:5000', localPort: 5000 }), loopback),
    ).toBeNull();
  });

  it('refuses another name, another port, and shapes no browser sends, naming the Host rule', () => {
    for (const host of [
      'evil.example',
      'evil.example:4321',
      '127.0.0.1:4322',
      '127.0.0.1',
      'evil.example@127.0.0.1:4321',
      '127.0.0.1:4321/x',
      '',
    ]) {
      expect(checkRequestOrigin(request({ host }), loopback)).toMatchObject({
        rule: 'host',
        code: 'host_not_allowed',
      });
    }
    expect(checkRequestOrigin(request({ host: 'evil.example' }), loopback)!.message).toContain(
      'FORJA_PUBLIC_URL',
    );
  });

  it('refuses a state-changing request from another origin or another site; reads are not refused for their Origin', () => {
    for (const method of STATE_CHANGING) {
      expect(
        checkRequestOrigin(
          request({ method, host: '127.0.0.1:4321', origin: 'https://evil.example' }),
          loopback,
        ),
      ).toMatchObject({ rule: 'origin' });
      expect(
        checkRequestOrigin(request({ method, host: '127.0.0.1:4321', origin: 'null' }), loopback),
      ).toMatchObject({ rule: 'origin' });
      expect(
        checkRequestOrigin(
          request({ method, host: '127.0.0.1:4321', secFetchSite: 'cross-site' }),
          loopback,
        ),
      ).toMatchObject({ rule: 'sec-fetch-site' });
      expect(
        checkRequestOrigin(
          request({
            method,
            host: '127.0.0.1:4321',
            origin: 'http://127.0.0.1:4321',
            secFetchSite: 'same-origin',
          }),
          loopback,
        ),
      ).toBeNull();
    }
    expect(
      checkRequestOrigin(
        request({
          host: '127.0.0.1:4321',
          origin: 'https://evil.example',
          secFetchSite: 'cross-site',
        }),
        loopback,
      ),
    ).toBeNull();
  });

  it('beyond loopback: the public names (with their scheme as the Origin) and IP addresses on the port, never another DNS name', () => {
    expect(
      checkRequestOrigin(
        request({ method: 'POST', host: 'forja.example.com', origin: 'https://forja.example.com' }),
        team,
      ),
    ).toBeNull();
    expect(
      checkRequestOrigin(
        request({ method: 'POST', host: 'forja.example.com', origin: 'http://forja.example.com' }),
        team,
      ),
    ).toMatchObject({ rule: 'origin' });
    expect(checkRequestOrigin(request({ host: '10.0.0.7:4321' }), team)).toBeNull();
    expect(checkRequestOrigin(request({ host: 'rebound.evil.example:4321' }), team)).toMatchObject({
      rule: 'host',
    });
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('127.0.0.2')).toBe(true);
  });

  const hostname = fc.oneof(
    fc.domain(),
    fc.ipV4(),
    fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'forja.example.com'),
  );
  const port = fc.oneof(fc.constant(4321), fc.integer({ min: 1, max: 65_535 }));
  const hostHeader = fc
    .tuple(hostname, fc.option(port, { nil: undefined }))
    .map(([name, p]) => (p === undefined ? name : `${name}:${p}`));
  const method = fc.constantFrom('GET', 'HEAD', 'OPTIONS', ...STATE_CHANGING);
  const webOrigin = fc
    .tuple(fc.constantFrom('http', 'https'), hostHeader)
    .map(([scheme, authority]) => `${scheme}://${authority}`);

  it('property: on loopback a Host is let in exactly when it is a loopback name with the listening port', () => {
    fc.assert(
      fc.property(hostHeader, method, (host, verb) => {
        const own = OWN_HOSTS.includes(host);
        expect(checkRequestOrigin(request({ method: verb, host }), loopback) === null).toBe(own);
      }),
    );
  });

  it('property: a state-changing request is let in only without an Origin or with one of Forja, and never cross-site', () => {
    const origin = fc.oneof(
      fc.constant(undefined),
      webOrigin,
      fc.constantFrom(
        'http://127.0.0.1:4321',
        'http://localhost:4321',
        'http://[::1]:4321',
        'null',
      ),
    );
    const site = fc.constantFrom(undefined, 'same-origin', 'same-site', 'none', 'cross-site');
    fc.assert(
      fc.property(
        fc.constantFrom(...STATE_CHANGING),
        fc.constantFrom(...OWN_HOSTS),
        origin,
        site,
        (verb, host, from, fetchSite) => {
          const ownOrigin =
            from === undefined ||
            ['http://127.0.0.1:4321', 'http://localhost:4321', 'http://[::1]:4321'].includes(from);
          const allowed = ownOrigin && fetchSite !== 'cross-site';
          expect(
            checkRequestOrigin(
              request({ method: verb, host, origin: from, secFetchSite: fetchSite }),
              loopback,
            ) === null,
          ).toBe(allowed);
        },
      ),
    );
  });

  it('property: reads are judged by their Host alone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'HEAD'),
        fc.constantFrom(...OWN_HOSTS),
        fc.option(webOrigin, { nil: undefined }),
        fc.constantFrom(undefined, 'cross-site', 'none'),
        (verb, host, from, fetchSite) => {
          expect(
            checkRequestOrigin(
              request({ method: verb, host, origin: from, secFetchSite: fetchSite }),
              loopback,
            ),
          ).toBeNull();
        },
      ),
    );
  });
});
