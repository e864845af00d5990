// Instruments a page of the static site before its scripts run: every message its Worker
// posts is logged in window.workerLog ({type, id, phase, done, total}), so a test can see that
// the work ran in the worker and in what order it reported. A hook can click Cancel on the
// first progress message of a phase: the click then lands while the worker is still busy
// (its later messages are queued behind), so a test of Cancel cannot race the work.
export async function instrumentWorker(page) {
  await page.addInitScript(() => {
    window.workerLog = [];
    window.cancelOnFirst = null;  // a progress phase ("read", "write"), or null
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        // What the page asks for, by id: the requests below are told apart by it.
        const post = this.postMessage.bind(this);
        this.postMessage = (message, ...rest) => {
          if (message?.id !== undefined) window.workerLog.push({ request: message.type, id: message.id });
          return post(message, ...rest);
        };
        // Registered before the page sets onmessage, so it sees each message first.
        this.addEventListener('message', ({ data }) => {
          const { type, id, phase, done, total } = data ?? {};
          window.workerLog.push({ type, id, phase, done, total });
          if (type === 'progress' && phase === window.cancelOnFirst) {
            window.cancelOnFirst = null;
            document.getElementById('cancel').click();
          }
        });
      }
    };
  });
}

export async function workerLog(page) {
  return page.evaluate(() => window.workerLog);
}

// The requests of the log, each with its type ('load', 'export', 'check', ...), its progress
// messages and how it ended.
export function requests(log) {
  const byId = new Map();
  for (const m of log) {
    if (m.id === undefined) continue;
    if (!byId.has(m.id)) byId.set(m.id, { id: m.id, type: null, progress: [], end: null, afterEnd: 0 });
    const r = byId.get(m.id);
    if (m.request !== undefined) {
      r.type = m.request;
    } else if (m.type === 'progress') {
      if (r.end) r.afterEnd += 1;
      else r.progress.push(m);
    } else {
      r.end = m.type;
    }
  }
  return [...byId.values()];
}
