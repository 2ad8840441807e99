// `?model=none` turns the model off (real-only mode): read by the prestart, before the app's code
// has loaded, and by the model's store.

export function modelTurnedOff(query: string): boolean {
  return new URLSearchParams(query).get('model') === 'none';
}
