import { readFile, writeFile } from 'node:fs/promises';

/**
 * The answers Vetrina gave, one per scenario, captured once per catalog size and handed
 * to the baseline processes, which send exactly these bytes: the ratio of throughputs is
 * then Vetrina's own cost, not the cost of moving the same bytes.
 */
export interface CapturedAnswer {
  contentType: string;
  body: Buffer;
}

/** A baseline answers scenario N at `${BASELINE_PREFIX}N`, for any method. */
export const BASELINE_PREFIX = '/baseline/';

export async function writeCapturedAnswers(file: string, answers: CapturedAnswer[]): Promise<void> {
  await writeFile(file, JSON.stringify(answers.map(({ contentType, body }) => ({ contentType, body: body.toString('base64') }))));
}

export async function readCapturedAnswers(file: string): Promise<CapturedAnswer[]> {
  const stored = JSON.parse(await readFile(file, 'utf8')) as { contentType: string; body: string }[];
  return stored.map(({ contentType, body }) => ({ contentType, body: Buffer.from(body, 'base64') }));
}
