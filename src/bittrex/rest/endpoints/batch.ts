/** The batch endpoint: several order placements and cancellations in one call. */
import { arrayOf } from '../../../model/decode.js';
import { type BatchOperation, type BatchResponse, decodeBatchResponse } from '../../../model/order.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { validateBatch } from '../validate.js';

/** `client.batch` (signed). */
export interface BatchEndpoints {
  /**
   * POST /batch — run the operations sequentially; one result per operation in request order, each with the
   * status and payload (Order or Error) the individual request would have given. A batch made only of
   * cancellations goes through the throttler's cancel queue.
   */
  submit(operations: readonly BatchOperation[], opts?: CallOptions): Promise<BatchResponse[]>;
}

const decodeBatchResponses = arrayOf(decodeBatchResponse);

/** Builds `client.batch` over a transport. */
export function createBatchEndpoints(http: HttpTransport): BatchEndpoints {
  return {
    submit: async (operations, opts) => {
      validateBatch(operations, 'POST /batch');
      const onlyCancels = operations.every((op) => op.operation === 'DELETE');
      return http.call(
        {
          method: 'POST',
          path: '/batch',
          body: operations,
          signed: true,
          subaccountId: opts?.subaccountId,
          priority: onlyCancels ? 'cancel' : 'place',
        },
        decodeBatchResponses,
      );
    },
  };
}
