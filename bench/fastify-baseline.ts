import Fastify from 'fastify';
import { BASELINE_PREFIX, readCapturedAnswers } from './captured-answers.js';

/**
 * The bare-Fastify baseline: answers `BASELINE_PREFIX` + N with the bytes Vetrina answered
 * for scenario N (`BASELINE_ANSWERS`). POST too, as the MCP scenario sends; Fastify
 * parses that body as a bare Fastify application would.
 */
const answers = await readCapturedAnswers(process.env.BASELINE_ANSWERS!);
const app = Fastify({ logger: false });
app.route<{ Params: { scenario: string } }>({
  method: ['GET', 'POST'],
  url: `${BASELINE_PREFIX}:scenario`,
  handler: async (request, reply) => {
    const answer = answers[Number(request.params.scenario)];
    return answer ? reply.type(answer.contentType).send(answer.body) : reply.code(404).send();
  },
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
