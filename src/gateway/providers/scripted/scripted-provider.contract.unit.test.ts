import { describeModelProviderContract } from '../testing/describe-model-provider-contract.ts';
import { contractAgent } from '../testing/contract-scenario.ts';
import { createScriptedProvider } from './create-scripted-provider.ts';

describeModelProviderContract('scripted', (scenario) => {
  switch (scenario.kind) {
    case 'turn': {
      const { text, toolCalls, usage } = scenario.turn;
      const turn = {
        agent: contractAgent,
        text,
        tool_calls: toolCalls,
        ...(usage === undefined
          ? {}
          : { usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } }),
      };
      return { provider: createScriptedProvider({ script: { turns: [turn] } }) };
    }
    case 'failure':
      // A scripted provider error, as a real provider answers a request it refuses.
      return {
        provider: createScriptedProvider({
          script: {
            turns: [{ agent: contractAgent, fail: { status: 400, message: 'scripted failure' } }],
          },
        }),
      };
    case 'endless':
      // The first delta at once, then a pause far longer than the test: cancellation must not wait it out.
      return {
        provider: createScriptedProvider({
          script: {
            turns: [
              {
                agent: contractAgent,
                text: `${scenario.firstText} and then more`,
                pace_ms: 600_000,
              },
            ],
          },
        }),
      };
  }
});
