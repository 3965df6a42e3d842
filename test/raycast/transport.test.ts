/**
 * The Raycast extension's transport (fetch) against a raw socket server sending 200 MB: reading
 * stops at the client's 32 MiB cap, the connection is closed, and memory stays bounded.
 */
import { ResponseTooLargeError } from "@linkshort/client/core";
import { setPreferences } from "./account";
import { getClient } from "../../raycast-extension/src/api/client";
import { floodingServer, rssPeak, type SocketServer } from "../nodes/hostile-sockets";

let server: SocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it("stops reading a 200 MB answer at the 32 MiB cap: ResponseTooLargeError, the connection closed, memory bounded", async () => {
  const total = 200 * 1024 * 1024;
  server = await floodingServer(total);
  setPreferences({ baseUrl: server.baseUrl, userKey: `sk_raycast_transport_${Date.now().toString(36)}` });
  const memory = rssPeak();
  const error = await getClient()
    .links.get(1)
    .catch((e: unknown) => e);
  const grewMb = memory.stop();
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect((error as Error).message).toBe(`The server's answer is larger than maxBodyBytes (${32 * 1024 * 1024} bytes); reading stopped there (HTTP 200)`);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(Math.max(...server.bodyBytesWritten)).toBeLessThan(total / 2);
  expect(grewMb).toBeLessThan(150);
}, 60_000);
