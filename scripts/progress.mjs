// The progress display of `npm start`: one line per long phase, with its elapsed time and what
// comes next. On a terminal the line updates every second; in a log it repeats every 30 s.

const interactive = Boolean(process.stdout.isTTY);

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
};

/**
 * Shows `title` (a string, or a function read at every tick for phases with steps) while `work`
 * runs. `startedAt` lets a phase that began in the background show its whole duration.
 */
export async function phase(title, next, work, { startedAt = Date.now() } = {}) {
  const label = () => (typeof title === "function" ? title() : title);
  const line = () => `  ${label()} ... ${seconds(Date.now() - startedAt)}${next ? ` (next: ${next})` : ""}`;
  if (!interactive) console.log(line());
  const ticker = setInterval(() => (interactive ? process.stdout.write(`\r\x1b[2K${line()}`) : console.log(line())), interactive ? 1000 : 30_000);
  if (interactive) process.stdout.write(line());
  try {
    const result = await work();
    clearInterval(ticker);
    finish(`✓ ${label()} (${seconds(Date.now() - startedAt)})`);
    return result;
  } catch (error) {
    clearInterval(ticker);
    finish(`✗ ${label()} failed after ${seconds(Date.now() - startedAt)}`);
    throw error;
  }
}

function finish(text) {
  if (interactive) process.stdout.write(`\r\x1b[2K${text}\n`);
  else console.log(`  ${text}`);
}
