import { anthropicStream } from '../testing/anthropic-wire.ts';
import { scenarioToWireTurn } from '../testing/contract-scenario.ts';
import { describeModelProviderContract } from '../testing/describe-model-provider-contract.ts';
import { startAnthropicTestServer } from '../testing/start-provider-test-servers.ts';
import { createAnthropicProvider } from './create-anthropic-provider.ts';

describeModelProviderContract('anthropic against its wire test server', async (scenario) => {
  const server = await startAnthropicTestServer();
  server.enqueue(anthropicStream(scenarioToWireTurn(scenario)));
  const provider = createAnthropicProvider({
    model: 'claude-test',
    apiKey: 'sk-ant-test-key',
    baseUrl: server.baseUrl,
  });
  return { provider, close: () => server.close() };
});
