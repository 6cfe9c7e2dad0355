/** What the service answered, as the client hands it on: the run model, the result readers and the client share it. */
/** A response body, read tolerantly: nothing the service sent is thrown away. */
export type ResponseBody =
  | { type: 'json'; value: unknown }
  | { type: 'text'; text: string; contentType: string }
  | { type: 'bytes'; bytes: Uint8Array; contentType: string };

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  body: ResponseBody;
  /** Retries spent (429, 502/503/504, dropped connections) before this answer. */
  retries: number;
  durationMs: number;
}
