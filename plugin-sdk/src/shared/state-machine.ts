// A state machine as data: the server enforces it (`nextState` throws on a move the machine does not
// allow) and the console reads it (`actionsFrom` decides which buttons show). One definition each,
// for every state of the specification (see ./states.ts).

/** Who may take an action: matched by the server against the caller (see each area's README). */
export type Actor =
  | 'owner' // the object's creator or owner
  | 'reviewer' // holds the area's review (edit) right on the object's library or project
  | 'assignee' // the user the task or item is assigned to
  | 'manager' // holds the area's management permission (project manager, administrator)
  | 'system'; // the platform itself: jobs, parsers, engines

export interface Transition<S extends string, A extends string> {
  action: A;
  from: readonly S[];
  /** The state after the action; absent for an action that is only allowed in `from` and moves nothing (export, download). */
  to?: S;
  by: readonly Actor[];
  /** True for actions a user may apply to a selection of objects at once. */
  batch?: boolean;
}

export interface StateMachine<S extends string = string, A extends string = string> {
  name: string;
  states: readonly S[];
  initial: S;
  /** States no action leaves. */
  final: readonly S[];
  transitions: readonly Transition<S, A>[];
}

export class TransitionError extends Error {
  constructor(
    readonly machine: string,
    readonly state: string,
    readonly action: string,
  ) {
    super(`${machine}: "${action}" is not allowed in state "${state}"`);
    this.name = 'TransitionError';
  }
}

/**
 * Checks a definition once, where it is written: every state named in a transition exists, the
 * initial and final states exist, final states have no way out, and an action from a state leads to
 * one place only. A mistake in the data fails at import time, not on a user's click.
 */
export function defineStateMachine<const S extends string, const A extends string>(machine: StateMachine<S, A>): StateMachine<S, A> {
  const known = new Set<string>(machine.states);
  const fail = (why: string) => {
    throw new Error(`state machine ${machine.name}: ${why}`);
  };
  if (known.size !== machine.states.length) fail('a state is listed twice');
  if (!known.has(machine.initial)) fail(`initial state ${machine.initial} is not one of its states`);
  for (const s of machine.final) if (!known.has(s)) fail(`final state ${s} is not one of its states`);
  const seen = new Set<string>();
  for (const t of machine.transitions) {
    if (t.from.length === 0) fail(`${t.action} starts from no state`);
    if (t.by.length === 0) fail(`${t.action} names nobody who may take it`);
    if (t.to !== undefined && !known.has(t.to)) fail(`${t.action} leads to unknown state ${t.to}`);
    for (const s of t.from) {
      if (!known.has(s)) fail(`${t.action} starts from unknown state ${s}`);
      if (machine.final.includes(s) && t.to !== undefined) fail(`${t.action} leaves final state ${s}`);
      const key = `${s}\u0000${t.action}`;
      if (seen.has(key)) fail(`${t.action} is defined twice from ${s}`);
      seen.add(key);
    }
  }
  return Object.freeze(machine);
}

function find<S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A): Transition<S, A> | undefined {
  return m.transitions.find((t) => t.action === action && t.from.includes(state));
}

/** True when `action` is allowed in `state` (optionally: for this actor). */
export function canTake<S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A, actor?: Actor): boolean {
  const t = find(m, state, action);
  return t !== undefined && (actor === undefined || t.by.includes(actor));
}

/** The state after `action`; throws TransitionError when the machine does not allow it. */
export function nextState<S extends string, A extends string>(m: StateMachine<S, A>, state: S, action: A, actor?: Actor): S {
  const t = find(m, state, action);
  if (!t || (actor !== undefined && !t.by.includes(actor))) throw new TransitionError(m.name, state, action);
  return t.to ?? state;
}

/** The actions allowed in `state` (for an actor when given): what the console offers as buttons. */
export function actionsFrom<S extends string, A extends string>(m: StateMachine<S, A>, state: S, actor?: Actor): A[] {
  return m.transitions.filter((t) => t.from.includes(state) && (actor === undefined || t.by.includes(actor))).map((t) => t.action);
}

/** The states `action` may start from: the `where status in (...)` of a batch update. */
export function statesAllowing<S extends string, A extends string>(m: StateMachine<S, A>, action: A): S[] {
  return [...new Set(m.transitions.filter((t) => t.action === action).flatMap((t) => t.from))];
}

/** Every state reachable from the initial one (a machine's test checks none is left unreachable). */
export function reachableStates<S extends string, A extends string>(m: StateMachine<S, A>): Set<S> {
  const seen = new Set<S>([m.initial]);
  const queue: S[] = [m.initial];
  while (queue.length) {
    const s = queue.shift()!;
    for (const t of m.transitions) {
      if (t.to !== undefined && t.from.includes(s) && !seen.has(t.to)) {
        seen.add(t.to);
        queue.push(t.to);
      }
    }
  }
  return seen;
}
