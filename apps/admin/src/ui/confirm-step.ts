/**
 * The steps between pressing a money button and the request: a press only asks, the operator's
 * confirmation sends, and it sends once however often the button is pressed while a request is
 * on its way. Kept apart from React so a unit test can walk it.
 */
export type ConfirmState<S> =
  { phase: 'idle' } | { phase: 'asking'; summary: S } | { phase: 'sending'; summary: S };

export type ConfirmEvent<S> =
  | { type: 'press'; summary: S }
  | { type: 'confirm' }
  | { type: 'cancel' }
  /** The request was refused: the dialog stays open with the same summary, to retry or cancel. */
  | { type: 'failed' }
  | { type: 'done' };

export interface ConfirmStep<S> {
  state: ConfirmState<S>;
  /** True once per confirmation: the caller sends the request now. */
  send: boolean;
}

export const CONFIRM_IDLE = { phase: 'idle' } as const;

export function confirmStep<S>(state: ConfirmState<S>, event: ConfirmEvent<S>): ConfirmStep<S> {
  const stay = { state, send: false };
  switch (event.type) {
    case 'press':
      return state.phase === 'idle'
        ? { state: { phase: 'asking', summary: event.summary }, send: false }
        : stay;
    case 'confirm':
      return state.phase === 'asking'
        ? { state: { phase: 'sending', summary: state.summary }, send: true }
        : stay;
    case 'cancel':
      // A request on its way cannot be called back; the dialog closes when it ends.
      return state.phase === 'asking' ? { state: CONFIRM_IDLE, send: false } : stay;
    case 'failed':
      return state.phase === 'sending'
        ? { state: { phase: 'asking', summary: state.summary }, send: false }
        : stay;
    case 'done':
      return { state: CONFIRM_IDLE, send: false };
  }
}
