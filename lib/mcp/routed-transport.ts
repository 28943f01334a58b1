// The SDK's Streamable HTTP server transport, with the ids of requests we send the client (an
// elicitation) made unique across every server of a session: `<server id>.<n>`. A client's answer
// can then reach this server from any web process (see relay.ts), and two servers of one session
// never hand out the same id.
import "server-only";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";

export class RoutedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: WebStandardStreamableHTTPServerTransport,
    readonly serverId: string,
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  start() {
    return this.inner.start();
  }

  close() {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions) {
    const out = isJSONRPCRequest(message) ? { ...message, id: `${this.serverId}.${String(message.id)}` } : message;
    return this.inner.send(out, options);
  }

  /** True when `message` answers one of this server's requests (and was handed to it). */
  deliverResponse(message: JSONRPCMessage): boolean {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return false;
    const id = message.id;
    const prefix = `${this.serverId}.`;
    if (typeof id !== "string" || !id.startsWith(prefix)) return false;
    const own = Number(id.slice(prefix.length));
    if (!Number.isSafeInteger(own)) return false;
    this.onmessage?.({ ...message, id: own });
    return true;
  }

  /** A notification for the session (a cancel): the protocol ignores what is not about its requests. */
  deliverNotification(message: JSONRPCMessage) {
    this.onmessage?.(message);
  }
}
