/**
 * The bot's operations endpoint on loopback: `GET /metrics` (Prometheus text from the bot's own registry) and
 * `GET /health` (JSON: 200 while the bot is healthy, 503 when it is not — e.g. a stream is not live or trading is
 * HALTED — so a supervisor can act on the status code alone).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

/** What /health reports. `healthy` decides the status code. */
export interface HealthReport {
  healthy: boolean;
  [detail: string]: unknown;
}

/** A running ops server. */
export interface OpsServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serve `/metrics` and `/health` on `host:port` (port 0 = any free port).
 *
 * @example
 * const ops = await startOpsServer({ metrics, health: () => ({ healthy: true }), port: 9464 });
 */
export async function startOpsServer(opts: { metrics: Metrics; health: () => HealthReport; host?: string; port?: number }): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      opts.metrics.text().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': opts.metrics.contentType });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`metrics unavailable: ${(err as Error).message}`);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/health') {
      let report: HealthReport;
      try {
        report = opts.health();
      } catch (err) {
        report = { healthy: false, error: (err as Error).message };
      }
      const body = JSON.stringify(report);
      res.writeHead(report.healthy ? 200 : 503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found: try /metrics or /health\n');
  });
  server.keepAliveTimeout = 2_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
