import { createOpenAiProvider } from '../openai/create-openai-provider.ts';
import { scenarioToWireTurn } from '../testing/contract-scenario.ts';
import { describeModelProviderContract } from '../testing/describe-model-provider-contract.ts';
import { openAiStream } from '../testing/openai-wire.ts';
import { startOpenAiTestServer } from '../testing/start-provider-test-servers.ts';
import { withRetries } from './with-retries.ts';

// The wrapper must be invisible: a retrying provider keeps the port's contract, cancellation included.
describeModelProviderContract('withRetries around openai', async (scenario) => {
  const server = await startOpenAiTestServer();
  server.enqueue(openAiStream(scenarioToWireTurn(scenario)));
  const adapter = createOpenAiProvider({ model: 'gpt-test', baseUrl: server.baseUrl });
  return {
    provider: withRetries(adapter, { sleep: async () => undefined }),
    close: () => server.close(),
  };
});
