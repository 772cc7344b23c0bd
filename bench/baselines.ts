import path from 'node:path';
import { BASELINE_PREFIX, writeCapturedAnswers, type CapturedAnswer } from './captured-answers.js';
import type { Scenario } from './scenarios.js';
import { startNodeProcess, type RunningProcess } from './service-process.js';

/** The baselines of one catalog size, each a process of its own serving the captured answers. */
export interface Baselines {
  nodeHttp: RunningProcess;
  fastify: RunningProcess;
  /** The size of each scenario's answer, in scenario order. */
  bodyBytes: number[];
  stop(): Promise<void>;
}

/** Vetrina's answer to one scenario, its exact bytes; throws on anything but 200. */
async function capture(baseUrl: string, scenario: Scenario): Promise<CapturedAnswer> {
  const { method, path: requestPath, headers, body } = scenario.request;
  const response = await fetch(`${baseUrl}${requestPath}`, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${scenario.name}: ${method} ${requestPath} answered ${response.status}: ${bytes.toString('utf8', 0, 300)}`);
  if (response.headers.has('content-encoding')) throw new Error(`${scenario.name}: answered ${response.headers.get('content-encoding')}, not identity bytes`);
  return { contentType: response.headers.get('content-type') ?? 'application/octet-stream', body: bytes };
}

/** Captures Vetrina's answers to `scenarios` into `work` and starts both baselines on them. */
export async function startBaselines(baseUrl: string, scenarios: Scenario[], work: string): Promise<Baselines> {
  const answers: CapturedAnswer[] = [];
  for (const scenario of scenarios) answers.push(await capture(baseUrl, scenario));
  const answersFile = path.join(work, 'answers.json');
  await writeCapturedAnswers(answersFile, answers);
  const start = (script: string) => startNodeProcess(['--import', 'tsx', script], { BASELINE_ANSWERS: answersFile }, `${BASELINE_PREFIX}0`);
  const nodeHttp = await start('bench/node-http-baseline.ts');
  const fastify = await start('bench/fastify-baseline.ts').catch(async (error: unknown) => {
    await nodeHttp.stop();
    throw error;
  });
  return {
    nodeHttp,
    fastify,
    bodyBytes: answers.map((answer) => answer.body.length),
    stop: async () => {
      await Promise.all([nodeHttp.stop(), fastify.stop()]);
    },
  };
}
