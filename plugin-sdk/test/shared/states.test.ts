import { describe, expect, it } from 'vitest';
import {
  actionsFrom,
  canTake,
  defineStateMachine,
  nextState,
  reachableStates,
  statesAllowing,
  TransitionError,
  type StateMachine,
} from '../../src/shared/state-machine.js';
import { documentFile, entryReview, message, STATE_MACHINES, TRAINING_STEPS, catTask } from '../../src/shared/states.js';

describe('every machine of the specification', () => {
  const machines = Object.entries(STATE_MACHINES) as Array<[string, StateMachine]>;

  it.each(machines)('%s reaches each of its states from the initial one', (_name, m) => {
    expect([...reachableStates(m)].sort()).toEqual([...m.states].sort());
  });

  it.each(machines)('%s leaves no non-final state without a way on', (_name, m) => {
    for (const s of m.states) {
      if (m.final.includes(s)) continue;
      expect(m.transitions.some((t) => t.to !== undefined && t.from.includes(s)), `${m.name}.${s}`).toBe(true);
    }
  });

  it.each(machines)('%s is named by its key', (name, m) => expect(m.name).toBe(name));
});

describe('term and memory entry review', () => {
  it('passes or rejects only unchecked entries', () => {
    expect(nextState(entryReview, 'unchecked', 'pass')).toBe('checked');
    expect(nextState(entryReview, 'unchecked', 'reject')).toBe('failed');
    for (const s of ['checked', 'failed'] as const) {
      expect(() => nextState(entryReview, s, 'pass')).toThrow(TransitionError);
      expect(() => nextState(entryReview, s, 'reject')).toThrow(TransitionError);
    }
  });

  it('enables, disables and exports only checked entries, without moving them', () => {
    for (const action of ['enable', 'disable', 'export'] as const) {
      expect(statesAllowing(entryReview, action)).toEqual(['checked']);
      expect(nextState(entryReview, 'checked', action)).toBe('checked');
      expect(canTake(entryReview, 'unchecked', action)).toBe(false);
    }
  });

  it('lets only a reviewer pass an entry', () => {
    expect(canTake(entryReview, 'unchecked', 'pass', 'reviewer')).toBe(true);
    expect(canTake(entryReview, 'unchecked', 'pass', 'owner')).toBe(false);
    expect(() => nextState(entryReview, 'unchecked', 'pass', 'owner')).toThrow(/not allowed/);
  });

  it('offers the buttons of a state', () => {
    expect(actionsFrom(entryReview, 'unchecked', 'reviewer').sort()).toEqual(['edit', 'pass', 'reject']);
  });
});

describe('document file', () => {
  it('terminates only translating files', () => {
    expect(statesAllowing(documentFile, 'terminate')).toEqual(['translating']);
  });
  it('downloads and previews only completed files', () => {
    expect(statesAllowing(documentFile, 'download')).toEqual(['completed']);
    expect(statesAllowing(documentFile, 'preview')).toEqual(['completed']);
  });
  it('walks the happy path from upload to completion', () => {
    let s: (typeof documentFile.states)[number] = documentFile.initial;
    for (const a of ['uploaded', 'parsed', 'submit', 'start', 'complete'] as const) s = nextState(documentFile, s, a);
    expect(s).toBe('completed');
  });
});

describe('other machines', () => {
  it('marks a message read once', () => {
    expect(nextState(message, 'unread', 'read')).toBe('read');
    expect(() => nextState(message, 'read', 'read')).toThrow(TransitionError);
  });
  it('lets only the assignee accept a CAT task', () => {
    expect(canTake(catTask, 'toBeConfirmed', 'accept', 'assignee')).toBe(true);
    expect(canTake(catTask, 'toBeConfirmed', 'accept', 'manager')).toBe(false);
  });
  it('lists the training steps in the specification order', () => {
    expect(TRAINING_STEPS[0]).toBe('mergeData');
    expect(TRAINING_STEPS.at(-1)).toBe('completed');
    expect(TRAINING_STEPS).toHaveLength(12);
  });
});

describe('a definition with a mistake fails where it is written', () => {
  const base = { name: 't', states: ['a', 'b'], initial: 'a', final: [] } as const;
  it('refuses a transition to an unknown state', () => {
    expect(() => defineStateMachine({ ...base, transitions: [{ action: 'go', from: ['a'], to: 'c' as 'b', by: ['system'] }] })).toThrow(/unknown state c/);
  });
  it('refuses the same action from one state twice', () => {
    expect(() =>
      defineStateMachine({
        ...base,
        transitions: [
          { action: 'go', from: ['a'], to: 'b', by: ['system'] },
          { action: 'go', from: ['a'], to: 'a', by: ['system'] },
        ],
      }),
    ).toThrow(/defined twice/);
  });
  it('refuses a way out of a final state', () => {
    expect(() => defineStateMachine({ ...base, final: ['b'], transitions: [{ action: 'back', from: ['b'], to: 'a', by: ['system'] }] })).toThrow(/leaves final/);
  });
  it('refuses an action nobody may take', () => {
    expect(() => defineStateMachine({ ...base, transitions: [{ action: 'go', from: ['a'], to: 'b', by: [] }] })).toThrow(/nobody/);
  });
});
