// The language server's reader of stdin: vscode-jsonrpc's StreamMessageReader, with two things added.
// - A frame it cannot read (`Content-Length: abc`, a header without one, a negative length) leaves
//   that reader stuck on the bad bytes for ever, silently (messageReader.js fires onError and waits for
//   more): tritonc logs the error and exits non-zero, so the editor restarts it.
// - Each document's newest version is noted as its didChange is read, before the connection queues it
//   (vscode-jsonrpc dispatches one queued message per turn of the event loop): the server then lints
//   only the newest version of a document, however many edits are queued behind the one at hand.
// And, before the connection dispatches a message, the lifecycle after `shutdown` (afterShutdown).
import {
  ErrorCodes,
  Message,
  StreamMessageReader,
  type DataCallback,
  type Disposable,
  type MessageReader,
  type MessageStrategy,
  type MessageWriter,
  type PartialMessageInfo,
} from 'vscode-languageserver/node.js';
import type { Event } from 'vscode-languageserver';

/**
 * LSP 3.17, Shutdown Request: once the server has received `shutdown`, "any other request received
 * after a shutdown request will return with an error InvalidRequest", and notifications other than
 * `exit` are dropped. vscode-languageserver (9.0.1) only notes the shutdown for `exit`'s status (0
 * after shutdown, else 1) and goes on answering: this stands before its dispatch, in message order.
 */
export function afterShutdown(writer: MessageWriter): MessageStrategy {
  let shutDown = false;
  return {
    handleMessage(message, next) {
      if (!shutDown) {
        if (Message.isRequest(message) && message.method === 'shutdown') shutDown = true;
        return next(message);
      }
      if (Message.isRequest(message)) {
        void writer.write({
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: ErrorCodes.InvalidRequest,
            message: `tritonc: the server is shut down; it answers ${message.method} with an error and waits for exit`,
          },
        } as Message);
        return;
      }
      // A response to a request of the server's still goes to it; of the notifications, only exit.
      if (Message.isNotification(message) && message.method !== 'exit') return;
      next(message);
    },
  };
}

export class PeekingReader implements MessageReader {
  /** uri -> the newest version a didOpen or didChange has announced (read, perhaps not yet handled). */
  readonly newest = new Map<string, number>();
  private readonly inner: StreamMessageReader;

  constructor(input: NodeJS.ReadableStream, onBadFrame: (error: Error) => void) {
    this.inner = new StreamMessageReader(input);
    this.inner.onError((e) => onBadFrame(e));
  }

  get onError(): Event<Error> {
    return this.inner.onError;
  }
  get onClose(): Event<void> {
    return this.inner.onClose;
  }
  get onPartialMessage(): Event<PartialMessageInfo> {
    return this.inner.onPartialMessage;
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => {
      const m = message as { method?: unknown; params?: { textDocument?: { uri?: unknown; version?: unknown } } };
      if (
        (m.method === 'textDocument/didChange' || m.method === 'textDocument/didOpen') &&
        typeof m.params?.textDocument?.uri === 'string' &&
        typeof m.params.textDocument.version === 'number'
      ) {
        this.newest.set(m.params.textDocument.uri, m.params.textDocument.version);
      }
      callback(message);
    });
  }

  /** Whether a newer version of `uri` than `version` has been read and waits in the queue. */
  newerQueued(uri: string, version: number): boolean {
    return (this.newest.get(uri) ?? version) > version;
  }

  dispose(): void {
    this.inner.dispose();
  }
}
