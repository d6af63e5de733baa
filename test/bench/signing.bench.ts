/** Signatures per second: REST request signing (SHA-512 content hash + HMAC-SHA512) as the client does it. */
import { signRequest } from '../../src/bittrex/rest/auth.js';
import { type Bench, opsPerSecondSync } from './harness.js';

const creds = { apiKey: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', apiSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' };
const body = JSON.stringify({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: '0.01', limit: '30000', timeInForce: 'GOOD_TIL_CANCELLED' });

export const benches: Bench[] = [
  {
    name: 'signatures',
    async run() {
      let ts = 1_700_000_000_000;
      const perSec = opsPerSecondSync(() =>
        signRequest(creds, { method: 'POST', uri: 'http://127.0.0.1:8080/v3/orders', body, timestamp: ts++ }),
      );
      return [{ bench: 'signatures', value: perSec, unit: 'signatures/s' }];
    },
  },
];
