/** The time source of everything that expires, injectable so tests can move time on. */
export type Clock = () => Date;

export const HOUR_MS = 60 * 60 * 1000;

export function later(now: Date, ms: number): Date {
  return new Date(now.getTime() + ms);
}
