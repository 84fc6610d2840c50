export {
  noTurnTracer,
  tracedGateway,
  type TracedChat,
  type TracedToolCall,
  type TracedTurn,
  type TurnTrace,
  type TurnTracer,
} from './turn-tracer.ts';
export {
  CAPTURE_CONTENT_VARIABLE,
  readTracingSettings,
  type TracingSettings,
} from './tracing-settings.ts';
export { startTurnTracer, type StartedTurnTracer } from './start-turn-tracer.ts';
