import { startTestGatewayOver, type TestGateway } from './gateway.fixture';
import { downService, startUpstream, type TestUpstream } from './upstream.server';

// The gateway the plugin specs share: an api, a media route with a larger body limit, a stream that
// reports its first chunk, and a service nothing listens on; global correlation-id, cors,
// request-size-limiting (1 KB) and rate-limiting.
const kongYml = (down: string): string => `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes:
      - name: api
        paths: [/api]
        strip_path: false
      - name: signin
        paths: [/api/users/signin]
        methods: [POST]
        strip_path: false
        plugins:
          - name: rate-limiting
            config: { hour: 3, policy: local, limit_by: ip }
  - name: media
    url: http://media:3006
    routes:
      - name: media
        paths: [/api/media]
        strip_path: false
        plugins:
          - name: request-size-limiting
            config: { allowed_payload_size: 4, size_unit: kilobytes }
  - name: stream
    url: http://stream:3007
    routes:
      - name: stream
        paths: [/stream]
        strip_path: false
${down}plugins:
  - name: correlation-id
    config: { header_name: Kong-Request-ID, generator: uuid#counter, echo_downstream: true }
  - name: cors
    config:
      origins: [http://localhost:8000, http://127.0.0.1:8000]
      methods: [GET, POST, PUT, DELETE, OPTIONS]
      headers: [Authorization, Content-Type, Idempotency-Key]
      exposed_headers: [X-Total-Count, Kong-Request-ID]
      credentials: false
      max_age: 600
  - name: request-size-limiting
    config: { allowed_payload_size: 1, size_unit: kilobytes }
  - name: rate-limiting
    config: { minute: 1000, policy: local, limit_by: ip }
`;

export interface PluginsGateway {
  gateway: TestGateway;
  api: TestUpstream;
  media: TestUpstream;
  stream: TestUpstream;
  /** Resolves when the stream service received the first chunk of a body. */
  firstStreamChunk: Promise<void>;
  close(): Promise<void>;
}

export async function startPluginsGateway(): Promise<PluginsGateway> {
  const api = await startUpstream('api');
  const media = await startUpstream('media');
  let reportFirstChunk: () => void = () => undefined;
  const firstStreamChunk = new Promise<void>((resolve) => (reportFirstChunk = resolve));
  const stream = await startUpstream('stream', (req, res, echo) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      reportFirstChunk();
    });
    req.on('end', () => res.end(JSON.stringify({ ...echo(), bodyBytes: bytes })));
  });
  const down = await downService();
  const gateway = await startTestGatewayOver({ yaml: kongYml(down.yaml) }, [api, media, stream], down.hosts);
  return { gateway, api, media, stream, firstStreamChunk, close: () => gateway.close() };
}
