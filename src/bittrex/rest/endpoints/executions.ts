/** Execution (own fill) endpoints. */
import { arrayOf } from '../../../model/decode.js';
import { type Execution, type ExecutionLastId, decodeExecution, decodeExecutionLastId } from '../../../model/order.js';
import type { CallOptions, HttpTransport, Sequenced } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalText, type PageFilter, segment, validatePageFilter } from '../validate.js';

/** Filter of GET /executions (newest first). */
export interface ExecutionsFilter extends PageFilter {
  marketSymbol?: string | undefined;
}

/** `client.executions` (signed). */
export interface ExecutionsEndpoints {
  /** GET /executions/{executionId} — one execution. */
  get(executionId: string, opts?: CallOptions): Promise<Execution>;
  /** GET /executions — one page of the account's executions, newest first (fills gaps in the execution stream). */
  list(filter?: ExecutionsFilter, opts?: CallOptions): Promise<Execution[]>;
  /** Every execution matching `filter`, page by page (GET /executions). */
  iterate(filter?: ExecutionsFilter, opts?: IterateOptions): AsyncGenerator<Execution, void, undefined>;
  /** GET /executions/last-id — id of the most recent execution, with the execution stream's Sequence. */
  lastId(filter?: { marketSymbol?: string | undefined }, opts?: CallOptions): Promise<Sequenced<ExecutionLastId>>;
  /** HEAD /executions/last-id — the execution stream's Sequence. */
  lastIdSequence(opts?: CallOptions): Promise<number>;
}

const decodeExecutions = arrayOf(decodeExecution);
const LIST = 'GET /executions';

/** Builds `client.executions` over a transport. */
export function createExecutionsEndpoints(http: HttpTransport): ExecutionsEndpoints {
  const list = async (filter: ExecutionsFilter = {}, opts?: CallOptions) => {
    optionalText('marketSymbol', filter.marketSymbol, LIST);
    validatePageFilter(filter, LIST);
    return http.call(
      {
        method: 'GET',
        path: '/executions',
        query: { marketSymbol: filter.marketSymbol, ...pageQuery(filter) },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeExecutions,
    );
  };
  return {
    get: async (executionId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/executions/${segment('executionId', executionId, 'GET /executions/{executionId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeExecution,
      ),
    list,
    iterate: (filter = {}, opts = {}) => iteratePages((f) => list(f, opts), filter, opts, LIST),
    lastId: async (filter = {}, opts) => {
      optionalText('marketSymbol', filter.marketSymbol, 'GET /executions/last-id');
      return http.callSequenced(
        {
          method: 'GET',
          path: '/executions/last-id',
          query: { marketSymbol: filter.marketSymbol },
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeExecutionLastId,
      );
    },
    lastIdSequence: (opts) =>
      http.head({ method: 'HEAD', path: '/executions/last-id', signed: true, subaccountId: opts?.subaccountId }),
  };
}
