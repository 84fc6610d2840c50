import { createInMemoryGraphStore } from './in-memory-graph-store.ts';
import { describeGraphStoreContract } from './testing/graph-store-contract.ts';

describeGraphStoreContract('in memory', async () => createInMemoryGraphStore());
