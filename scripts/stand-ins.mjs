// Local stand-ins for what the example workflows talk to besides the sandbox, so that they run
// offline in `npm start` and the real-n8n suites: an SMTP server that keeps each e-mail, and an
// OpenAI-compatible chat model that answers the AI Agent example with scripted tool calls.
import { createServer as httpServer } from "node:http";
import { createServer as tcpServer } from "node:net";

/** An SMTP server on the loopback address that accepts every message (no TLS, no login) and keeps it. */
export async function startSmtpCatcher({ print = false } = {}) {
  const messages = [];
  const server = tcpServer((socket) => {
    let envelope = { from: "", to: [] };
    let data = null;
    let buffered = "";
    socket.write("220 linkshort-smtp-stand-in ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffered += chunk;
      if (buffered.length > 1_000_000) return socket.destroy();
      let end;
      while ((end = data === null ? buffered.indexOf("\r\n") : buffered.indexOf("\r\n.\r\n")) >= 0) {
        if (data !== null) {
          const raw = buffered.slice(0, end);
          buffered = buffered.slice(end + 5);
          data = null;
          const message = { ...envelope, raw, subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? "", text: raw.split("\r\n\r\n").slice(1).join("\r\n\r\n") };
          messages.push(message);
          if (print) console.log(`\n[SMTP stand-in] e-mail to ${message.to.join(", ")}: ${message.subject}\n`);
          envelope = { from: "", to: [] };
          socket.write("250 2.0.0 kept\r\n");
          continue;
        }
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const command = line.slice(0, 4).toUpperCase();
        if (command === "EHLO") socket.write("250-linkshort-smtp-stand-in\r\n250 8BITMIME\r\n");
        else if (command === "HELO") socket.write("250 linkshort-smtp-stand-in\r\n");
        else if (command === "MAIL") {
          envelope.from = line.slice(10).replace(/[<>]/g, "").trim();
          socket.write("250 2.1.0 ok\r\n");
        } else if (command === "RCPT") {
          envelope.to.push(line.slice(8).replace(/[<>]/g, "").trim());
          socket.write("250 2.1.5 ok\r\n");
        } else if (command === "DATA") {
          data = "";
          socket.write("354 end with <CRLF>.<CRLF>\r\n");
        } else if (command === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => undefined);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { host: "127.0.0.1", port: server.address().port, messages, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The first URL in a text. */
const urlIn = (text) => /https?:\/\/[^\s"')]+/.exec(text)?.[0];

/**
 * What the scripted model answers, from the conversation so far: call the tool that shortens with
 * the URL of the question, then the tool that reads a link with the id it got, then a final answer
 * with the short URL and its clicks.
 */
function scriptedReply({ messages = [], tools = [] }) {
  const toolNamed = (pattern) => tools.map((tool) => tool.function).find((fn) => pattern.test(fn.name) || pattern.test(fn.description ?? ""));
  const results = messages
    .filter((message) => message.role === "tool")
    .map((message) => {
      try {
        const parsed = JSON.parse(typeof message.content === "string" ? message.content : JSON.stringify(message.content));
        return Array.isArray(parsed) ? parsed[0] : parsed;
      } catch {
        return {};
      }
    });
  const call = (fn, value) => {
    const [argument] = Object.keys(fn.parameters?.properties ?? {});
    return {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: `call_${results.length + 1}`, type: "function", function: { name: fn.name, arguments: JSON.stringify(argument ? { [argument]: value } : {}) } },
      ],
    };
  };
  const question = [...messages].reverse().find((message) => message.role === "user");
  const shorten = toolNamed(/shorten/i);
  const read = toolNamed(/clicks|statistics|get/i);
  if (results.length === 0 && shorten) return call(shorten, urlIn(String(question?.content ?? "")) ?? "https://n8n.io");
  const created = results.find((result) => result?.shorturl);
  if (results.length === 1 && read && created?.id !== undefined) return call(read, created.id);
  const stats = results.at(-1) ?? {};
  return { role: "assistant", content: `Shortened to ${created?.shorturl ?? "(no link)"}: it has ${stats.clicks ?? 0} clicks so far.` };
}

/** An OpenAI-compatible chat completions endpoint (`/v1`) that plays the model for the AI Agent example. */
export async function startChatModelStandIn() {
  const requests = [];
  const server = httpServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const json = (status, value) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (request.method === "GET" && request.url?.endsWith("/models"))
        return json(200, { object: "list", data: [{ id: "gpt-4o-mini", object: "model", owned_by: "stand-in" }] });
      if (request.method !== "POST" || !request.url?.endsWith("/chat/completions"))
        return json(404, { error: { message: `the stand-in answers /v1/chat/completions, not ${request.url}` } });
      let parsed = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        return json(400, { error: { message: "not JSON" } });
      }
      requests.push(parsed);
      const message = scriptedReply(parsed);
      json(200, {
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: parsed.model ?? "gpt-4o-mini",
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The n8n credentials (`import:credentials`) the examples name for the stand-ins: SMTP and OpenAI. */
export function standInCredentials(smtp, model) {
  return [
    {
      id: "smtpStandIn",
      name: "SMTP account",
      type: "smtp",
      data: { user: "", password: "", host: smtp.host, port: smtp.port, secure: false, disableStartTls: true },
    },
    { id: "openAiAccount", name: "OpenAI account", type: "openAiApi", data: { apiKey: "sk-stand-in", url: model.url } },
  ];
}
