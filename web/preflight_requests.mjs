// The pre-flight's requests to the worker (model.check(): the export run into nothing), in
// turn with the user's own requests (load, export). The worker runs one request at a time and
// a WebAssembly call cannot be interrupted short of terminating the worker, so:
//
// - want(options): a check of these options is wanted. Debounced (delayMs): typing in a field
//   starts one check, not one per key. Each want() supersedes every earlier one: a check that
//   is already running finishes in the worker, but its result is dropped, never shown, and the
//   newest runs after it. At most one check runs and at most one waits.
// - cancel(): no check is wanted any more (the user pressed Cancel, the model is going): the
//   waiting one is forgotten and the running one's result dropped. Cancel itself terminates
//   the worker (WorkerClient.cancel), which ends a running check with CANCELLED.
// - foreground(fn): runs a user's request. No check starts while one runs or waits; a check
//   already running is waited for, and only that one: a user's Export is delayed by at most
//   one check, never by the checks wanted after it. When the user pressed Cancel during that
//   wait, fn does not run: the request rejects with CANCELLED.
//
// onResult({options, report} | {options, error}) gets the newest wanted check's outcome only.
// onState('waiting' | 'running' | 'idle') says whether a current check is still to come.

export class PreflightRequests {
  #run;
  #onResult;
  #onState;
  #delayMs;
  #timers;
  #generation = 0; // bumped by want() and cancel(): an outcome of an older one is stale
  #cancels = 0; // bumped by cancel(): a user's request waiting for a check then gives up
  #timer = null;
  #waiting = null; // {generation, options}: debounced, its turn not yet come
  #running = null; // the running check's promise (settles, never rejects)
  #foreground = 0; // user requests running or waiting for the running check

  // run(options) -> Promise of the report; timers: {setTimeout, clearTimeout} (tests pass
  // their own clock).
  constructor({ run, onResult, onState = () => {}, delayMs = 200, timers = globalThis }) {
    this.#run = run;
    this.#onResult = onResult;
    this.#onState = onState;
    this.#delayMs = delayMs;
    this.#timers = timers;
  }

  want(options) {
    this.#generation += 1;
    this.#forgetWaiting();
    const generation = this.#generation;
    this.#onState('waiting');
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      this.#waiting = { generation, options };
      this.#pump();
    }, this.#delayMs);
  }

  cancel() {
    this.#generation += 1;
    this.#cancels += 1;
    this.#forgetWaiting();
    this.#onState('idle');
  }

  async foreground(fn) {
    this.#foreground += 1;
    try {
      if (this.#running) {
        const cancels = this.#cancels;
        await this.#running;
        if (cancels !== this.#cancels) throw { code: 'CANCELLED', message: 'cancelled' };
      }
      return await fn();
    } finally {
      this.#foreground -= 1;
      this.#pump();
    }
  }

  // True while a check runs in the worker (stale or not).
  get running() {
    return this.#running !== null;
  }

  #forgetWaiting() {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = null;
  }

  #pump() {
    if (this.#foreground > 0 || this.#running || !this.#waiting) return;
    const { generation, options } = this.#waiting;
    this.#waiting = null;
    this.#onState('running');
    const current = () => generation === this.#generation;
    this.#running = Promise.resolve()
      .then(() => this.#run(options))
      .then((report) => ({ options, report }), (error) => ({ options, error }))
      .then((outcome) => {
        this.#running = null;
        // A check the worker's termination ended says nothing about the options.
        if (current() && outcome.error?.code !== 'CANCELLED') {
          this.#onState('idle');
          this.#onResult(outcome);
        }
        this.#pump();
      });
  }
}
