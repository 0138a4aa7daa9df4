import { type DevChainTransferRequest, devChainTransferSchema } from '@tradewind/contract/deposit';
import { http } from '@/api/http.ts';

/** Demo mode only: a USDT transfer to an address on the simulated chain (no money moves in the ledger). */
export const simulateDeposit = (body: DevChainTransferRequest) =>
  http.post('/api/v1/dev/chain/transfer', body, { schema: devChainTransferSchema });
