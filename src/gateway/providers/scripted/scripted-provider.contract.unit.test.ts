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
        ...(usage === undefined ? {} : { usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } }),
      };
      return { provider: createScriptedProvider({ script: { turns: [turn] } }) };
    }
    case 'failure':
      // The scripted provider's one failure: no turn left for the agent.
      return { provider: createScriptedProvider({ script: { turns: [] } }) };
    case 'endless':
      return {
        provider: createScriptedProvider({
          script: { turns: [{ agent: contractAgent, text: `${scenario.firstText} ${'and then more '.repeat(200)}` }] },
        }),
      };
  }
});
