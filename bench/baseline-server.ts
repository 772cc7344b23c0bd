import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';

/**
 * The baseline of a benchmark run: bare Fastify answering, for scenario N, the very
 * bytes Vetrina answered for it (captured at the start of the run). The ratio of the
 * two throughputs is then Vetrina's own cost, not the cost of moving the same bytes.
 */
const bodies = JSON.parse(await readFile(process.env.BASELINE_BODIES!, 'utf8')) as string[];
const app = Fastify({ logger: false });
app.get<{ Params: { scenario: string } }>('/baseline/:scenario', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(bodies[Number(request.params.scenario)]),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
