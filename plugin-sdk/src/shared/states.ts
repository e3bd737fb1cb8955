// The states of the specification (02-business-domain.md section 4) as data, one machine each.
// State and action names are the words the server stores and the console's locale keys use
// (`states.<machine>.<state>`, `actions.<action>`). Where the specification lists states without
// their moves, the moves here are the platform's decision; each area's README repeats the ones it uses.
import { defineStateMachine } from './state-machine.js';

/** Term and translation-memory entry review (spec 4). Enable, disable and export move nothing but need a checked entry. */
export const entryReview = defineStateMachine({
  name: 'entryReview',
  states: ['unchecked', 'checked', 'failed'],
  initial: 'unchecked',
  final: [],
  transitions: [
    { action: 'pass', from: ['unchecked'], to: 'checked', by: ['reviewer'], batch: true },
    { action: 'reject', from: ['unchecked'], to: 'failed', by: ['reviewer'], batch: true },
    { action: 'enable', from: ['checked'], by: ['reviewer'], batch: true },
    { action: 'disable', from: ['checked'], by: ['reviewer'], batch: true },
    { action: 'export', from: ['checked'], by: ['owner', 'reviewer'], batch: true },
    // Editing a reviewed entry's text sends it back for review.
    { action: 'edit', from: ['unchecked', 'checked', 'failed'], to: 'unchecked', by: ['owner', 'reviewer'] },
  ],
});

/** A registered user account (spec 4: unchecked goes to approved through a check action; stored as `checked`). */
export const userReview = defineStateMachine({
  name: 'userReview',
  states: ['unchecked', 'checked'],
  initial: 'unchecked',
  final: ['checked'],
  transitions: [{ action: 'check', from: ['unchecked'], to: 'checked', by: ['manager'], batch: true }],
});

/** A file in document translation (spec 4). Only translating files can be terminated; only completed ones downloaded or previewed. */
export const documentFile = defineStateMachine({
  name: 'documentFile',
  states: ['uploading', 'uploadInterrupted', 'parsing', 'parseFailed', 'notTranslated', 'queued', 'translating', 'terminated', 'completed', 'failed', 'unknown'],
  initial: 'uploading',
  final: [],
  transitions: [
    { action: 'uploaded', from: ['uploading'], to: 'parsing', by: ['system'] },
    { action: 'interrupt', from: ['uploading'], to: 'uploadInterrupted', by: ['system'] },
    { action: 'resume', from: ['uploadInterrupted'], to: 'uploading', by: ['owner'] },
    { action: 'parsed', from: ['parsing'], to: 'notTranslated', by: ['system'] },
    { action: 'parseFail', from: ['parsing'], to: 'parseFailed', by: ['system'] },
    { action: 'reparse', from: ['parseFailed'], to: 'parsing', by: ['owner', 'manager'] },
    { action: 'submit', from: ['notTranslated', 'terminated', 'failed', 'completed', 'unknown'], to: 'queued', by: ['owner', 'manager'], batch: true },
    { action: 'dequeue', from: ['queued'], to: 'notTranslated', by: ['owner', 'manager'], batch: true },
    { action: 'start', from: ['queued'], to: 'translating', by: ['system'] },
    { action: 'complete', from: ['translating'], to: 'completed', by: ['system'] },
    { action: 'fail', from: ['translating'], to: 'failed', by: ['system'] },
    { action: 'terminate', from: ['translating'], to: 'terminated', by: ['owner', 'manager'], batch: true },
    // A file whose work was lost in a way the platform cannot explain (its job vanished) is marked, never left spinning.
    { action: 'lose', from: ['parsing', 'queued', 'translating'], to: 'unknown', by: ['system'] },
    { action: 'download', from: ['completed'], by: ['owner', 'manager'], batch: true },
    { action: 'preview', from: ['completed'], by: ['owner', 'manager'] },
  ],
});

/** A file's preview (spec 4). */
export const previewStatus = defineStateMachine({
  name: 'previewStatus',
  states: ['notPreviewed', 'unsupported', 'preparing', 'prepared', 'previewFailed'],
  initial: 'notPreviewed',
  final: ['unsupported'],
  transitions: [
    { action: 'unsupported', from: ['notPreviewed'], to: 'unsupported', by: ['system'] },
    { action: 'prepare', from: ['notPreviewed', 'previewFailed'], to: 'preparing', by: ['owner', 'system'] },
    { action: 'ready', from: ['preparing'], to: 'prepared', by: ['system'] },
    { action: 'fail', from: ['preparing'], to: 'previewFailed', by: ['system'] },
    // A new translation of the file makes its preview stale.
    { action: 'invalidate', from: ['prepared', 'previewFailed'], to: 'notPreviewed', by: ['system'] },
  ],
});

/** PDF conversion (spec 4). */
export const pdfConversion = defineStateMachine({
  name: 'pdfConversion',
  states: ['notConverted', 'converting', 'converted', 'conversionFailed'],
  initial: 'notConverted',
  final: ['converted'],
  transitions: [
    { action: 'convert', from: ['notConverted', 'conversionFailed'], to: 'converting', by: ['owner'], batch: true },
    { action: 'complete', from: ['converting'], to: 'converted', by: ['system'] },
    { action: 'fail', from: ['converting'], to: 'conversionFailed', by: ['system'] },
    { action: 'download', from: ['converted'], by: ['owner'], batch: true },
  ],
});

/** Incremental engine training (spec 4). */
export const training = defineStateMachine({
  name: 'training',
  states: ['notStarted', 'awaitingData', 'training', 'success', 'cancelled', 'failed'],
  initial: 'notStarted',
  final: ['success'],
  transitions: [
    { action: 'start', from: ['notStarted', 'cancelled', 'failed'], to: 'awaitingData', by: ['manager'] },
    { action: 'dataReady', from: ['awaitingData'], to: 'training', by: ['system'] },
    { action: 'succeed', from: ['training'], to: 'success', by: ['system'] },
    { action: 'fail', from: ['awaitingData', 'training'], to: 'failed', by: ['system'] },
    { action: 'cancel', from: ['awaitingData', 'training'], to: 'cancelled', by: ['manager'] },
  ],
});

/** The steps a training run goes through, in order (spec 4); progress is the index of the current step. */
export const TRAINING_STEPS = [
  'mergeData',
  'pullModel',
  'environmentConfig',
  'preprocessing',
  'tokenisation',
  'lengthRatioFiltering',
  'subwordSplit',
  'abnormalSentenceFiltering',
  'formatConversion',
  'modelTraining',
  'createImageAndContainer',
  'completed',
] as const;
export type TrainingStep = (typeof TRAINING_STEPS)[number];

/** A CAT task, one assignee's share of a file (spec 4). A reassigned task is closed; its successor starts as toBeConfirmed. */
export const catTask = defineStateMachine({
  name: 'catTask',
  states: ['unassigned', 'toBeConfirmed', 'unfinished', 'finished', 'rejected', 'reassigned'],
  initial: 'unassigned',
  final: ['reassigned'],
  transitions: [
    { action: 'assign', from: ['unassigned'], to: 'toBeConfirmed', by: ['manager'], batch: true },
    { action: 'accept', from: ['toBeConfirmed'], to: 'unfinished', by: ['assignee'] },
    { action: 'refuse', from: ['toBeConfirmed'], to: 'rejected', by: ['assignee'] },
    { action: 'reassign', from: ['toBeConfirmed', 'unfinished', 'rejected'], to: 'reassigned', by: ['manager'] },
    { action: 'finish', from: ['unfinished'], to: 'finished', by: ['assignee'] },
    { action: 'reopen', from: ['finished'], to: 'unfinished', by: ['manager'] },
  ],
});

/** A CAT project (spec 4). */
export const catProject = defineStateMachine({
  name: 'catProject',
  states: ['notStarted', 'inProgress', 'finished'],
  initial: 'notStarted',
  final: [],
  transitions: [
    { action: 'start', from: ['notStarted'], to: 'inProgress', by: ['manager', 'system'] },
    { action: 'finish', from: ['inProgress'], to: 'finished', by: ['manager', 'system'] },
    { action: 'reopen', from: ['finished'], to: 'inProgress', by: ['manager'] },
  ],
});

/** A file in a CAT project (spec 4). */
export const catFile = defineStateMachine({
  name: 'catFile',
  states: ['uploading', 'uploadFailed', 'parsing', 'parseFailed', 'unassigned', 'inProgress', 'finished'],
  initial: 'uploading',
  final: [],
  transitions: [
    { action: 'uploaded', from: ['uploading'], to: 'parsing', by: ['system'] },
    { action: 'uploadFail', from: ['uploading'], to: 'uploadFailed', by: ['system'] },
    { action: 'retryUpload', from: ['uploadFailed'], to: 'uploading', by: ['manager'] },
    { action: 'parsed', from: ['parsing'], to: 'unassigned', by: ['system'] },
    { action: 'parseFail', from: ['parsing'], to: 'parseFailed', by: ['system'] },
    { action: 'reparse', from: ['parseFailed'], to: 'parsing', by: ['manager'] },
    { action: 'assign', from: ['unassigned'], to: 'inProgress', by: ['manager'], batch: true },
    { action: 'finish', from: ['inProgress'], to: 'finished', by: ['manager', 'system'] },
    { action: 'reopen', from: ['finished'], to: 'inProgress', by: ['manager'] },
  ],
});

/** A sentence in the CAT editor (spec 4). Editing a confirmed sentence makes it unconfirmed again. */
export const sentence = defineStateMachine({
  name: 'sentence',
  states: ['unconfirmed', 'confirmed', 'reviewConfirmed'],
  initial: 'unconfirmed',
  final: [],
  transitions: [
    { action: 'confirm', from: ['unconfirmed'], to: 'confirmed', by: ['assignee'], batch: true },
    { action: 'reviewConfirm', from: ['confirmed'], to: 'reviewConfirmed', by: ['reviewer'], batch: true },
    { action: 'edit', from: ['unconfirmed', 'confirmed', 'reviewConfirmed'], to: 'unconfirmed', by: ['assignee', 'reviewer'] },
  ],
});

/** A proofreading task (spec 4). */
export const proofreadingTask = defineStateMachine({
  name: 'proofreadingTask',
  states: ['notStarted', 'implementing', 'suspended', 'finished', 'closed'],
  initial: 'notStarted',
  final: ['closed'],
  transitions: [
    { action: 'start', from: ['notStarted'], to: 'implementing', by: ['manager', 'assignee'] },
    { action: 'suspend', from: ['implementing'], to: 'suspended', by: ['manager'] },
    { action: 'resume', from: ['suspended'], to: 'implementing', by: ['manager'] },
    { action: 'finish', from: ['implementing'], to: 'finished', by: ['manager', 'system'] },
    { action: 'close', from: ['notStarted', 'implementing', 'suspended', 'finished'], to: 'closed', by: ['manager'] },
  ],
});

/** One item of a proofreading task (spec 4). */
export const proofreadingItem = defineStateMachine({
  name: 'proofreadingItem',
  states: ['unclaimed', 'inProofreading', 'finished'],
  initial: 'unclaimed',
  final: [],
  transitions: [
    { action: 'claim', from: ['unclaimed'], to: 'inProofreading', by: ['assignee'] },
    { action: 'release', from: ['inProofreading'], to: 'unclaimed', by: ['assignee', 'manager'] },
    { action: 'finish', from: ['inProofreading'], to: 'finished', by: ['assignee'] },
    { action: 'reopen', from: ['finished'], to: 'inProofreading', by: ['manager'] },
  ],
});

/** A message in the user's inbox (spec 4: unread goes to read). */
export const message = defineStateMachine({
  name: 'message',
  states: ['unread', 'read'],
  initial: 'unread',
  final: ['read'],
  transitions: [{ action: 'read', from: ['unread'], to: 'read', by: ['owner'], batch: true }],
});

/**
 * A task of the kernel's task service (long work over the job queue). A running task whose server died
 * goes back to queued and resumes from its last checkpoint; so does a failed run while retries remain.
 */
export const task = defineStateMachine({
  name: 'task',
  states: ['queued', 'running', 'completed', 'failed', 'cancelled'],
  initial: 'queued',
  final: ['completed'],
  transitions: [
    { action: 'start', from: ['queued'], to: 'running', by: ['system'] },
    { action: 'complete', from: ['running'], to: 'completed', by: ['system'] },
    { action: 'fail', from: ['running'], to: 'failed', by: ['system'] },
    { action: 'requeue', from: ['running'], to: 'queued', by: ['system'] },
    { action: 'cancel', from: ['queued', 'running'], to: 'cancelled', by: ['owner', 'manager'], batch: true },
    { action: 'retry', from: ['failed', 'cancelled'], to: 'queued', by: ['owner', 'manager'] },
  ],
});
export type TaskState = (typeof task.states)[number];

/** Every machine of the specification, by name (the console's status tags and the API page read this). */
export const STATE_MACHINES = {
  entryReview,
  userReview,
  documentFile,
  previewStatus,
  pdfConversion,
  training,
  catTask,
  catProject,
  catFile,
  sentence,
  proofreadingTask,
  proofreadingItem,
  message,
  task,
} as const;
