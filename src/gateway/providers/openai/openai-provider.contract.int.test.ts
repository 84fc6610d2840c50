import { scenarioToWireTurn } from '../testing/contract-scenario.ts';
import { describeModelProviderContract } from '../testing/describe-model-provider-contract.ts';
import { openAiStream } from '../testing/openai-wire.ts';
import { startOpenAiTestServer } from '../testing/start-provider-test-servers.ts';
import { createOpenAiProvider } from './create-openai-provider.ts';

describeModelProviderContract('openai against its wire test server', async (scenario) => {
  const server = await startOpenAiTestServer();
  server.enqueue(openAiStream(scenarioToWireTurn(scenario)));
  const provider = createOpenAiProvider({
    model: 'gpt-test',
    apiKey: 'sk-test-key',
    baseUrl: server.baseUrl,
  });
  return { provider, close: () => server.close() };
});
