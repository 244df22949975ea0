/**
 * Counts the turns of the event loop while `work` runs: a setImmediate that schedules itself again
 * runs once per turn. Work that never lets the loop run counts none, however long it takes.
 */
export async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let ticking = true;
  const turn = () => {
    if (!ticking) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    ticking = false;
  }
}
