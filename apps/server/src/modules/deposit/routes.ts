import {
  depositAddressSchema,
  depositHistoryQuerySchema,
  depositHistorySchema,
  devChainHeightSchema,
  devChainMineRequestSchema,
  devChainTransferRequestSchema,
  devChainTransferSchema,
} from '@tradewind/contract/deposit';
import { formatAmount } from '@tradewind/contract/money';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { route } from '#platform/http.ts';
import { DEV_ROUTE_PER_MINUTE } from '#platform/rate-limits.ts';
import { amountOf } from '../wallet/service.ts';
import { depositAddressInfo, listDeposits } from './service.ts';
import { SimulatedChain } from './simulated-chain.ts';
import { isTronAddress } from './tron.ts';

const tags = ['deposit'];

export function registerDepositRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Config },
): void {
  const { db, clock, config } = deps;

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/deposit/address',
      auth: 'user',
      summary: 'Your USDT-TRC20 deposit address (created on first call)',
      tags,
      response: depositAddressSchema,
    },
    async ({ auth }) => depositAddressInfo(db, clock.now(), config, auth.userId),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/deposit/history',
      auth: 'user',
      summary: 'Your deposits, newest first',
      tags,
      query: depositHistoryQuerySchema,
      response: depositHistorySchema,
    },
    async ({ auth, query }) => listDeposits(db, config, auth.userId, query),
  );

  // The simulated chain's controls exist only in demo mode: outside it the routes are not registered at all.
  if (config.demoMode) {
    const simulated = () => {
      if (config.deposit.chain !== 'simulated') throw new AppError('DEPOSIT_SIMULATION_OFF');
      return new SimulatedChain(db, clock);
    };

    route(
      app,
      {
        method: 'POST',
        url: '/api/v1/dev/chain/transfer',
        auth: 'none',
        summary: 'Demo mode only: send USDT to an address on the simulated chain',
        tags: ['demo'],
        body: devChainTransferRequestSchema,
        response: devChainTransferSchema,
        rateLimit: { max: DEV_ROUTE_PER_MINUTE, timeWindow: 60_000 },
      },
      async ({ body }) => {
        const chain = simulated();
        if (!isTronAddress(body.address))
          throw new AppError('DEPOSIT_ADDRESS_INVALID', {}, 422, 'address');
        const transfer = await chain.send(body.address, amountOf(body.amount, 'USDT'));
        return {
          txid: transfer.txid,
          logIndex: transfer.logIndex,
          blockNumber: transfer.blockNumber,
          address: transfer.toAddress,
          amount: formatAmount(transfer.amountMinor, 6),
        };
      },
    );

    route(
      app,
      {
        method: 'POST',
        url: '/api/v1/dev/chain/mine',
        auth: 'none',
        summary: 'Demo mode only: move the simulated chain forward by some blocks',
        tags: ['demo'],
        body: devChainMineRequestSchema,
        response: devChainHeightSchema,
        rateLimit: { max: DEV_ROUTE_PER_MINUTE, timeWindow: 60_000 },
      },
      async ({ body }) => ({ blockNumber: await simulated().mine(body.blocks) }),
    );

    route(
      app,
      {
        method: 'GET',
        url: '/api/v1/dev/chain/height',
        auth: 'none',
        summary: 'Demo mode only: the simulated chain height',
        tags: ['demo'],
        response: devChainHeightSchema,
      },
      async () => ({ blockNumber: await simulated().currentBlock() }),
    );
  }
}
