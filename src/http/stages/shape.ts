/** WordPress's `_envelope` and `_fields` global parameters (common.md 1.6), applied to the endpoint's answer. */
import { RestError } from '../errors.js';
import { jsonAnswer, type Stage } from '../exchange.js';
import { envelope, selectFields } from '../fields.js';

/**
 * `_envelope`: always 200, the endpoint's status and headers inside the body, its errors
 * included. An envelope is kept by the response cache only when it holds a 200.
 */
export const applyEnvelope: Stage = async (x, next) => {
  if (x.query._envelope === undefined) return next();
  try {
    const answer = await next();
    if (answer.kind !== 'json' || answer.contentType) return answer;
    return {
      ...jsonAnswer(200, envelope(answer.body, answer.status, answer.headers), x.privateHeaders),
      storable: answer.storable,
    };
  } catch (caught) {
    const err = x.dispatcher.faults.asRestError(x.request.log, caught);
    if (!(err instanceof RestError)) throw err;
    return jsonAnswer(200, envelope(err.body, err.status, { ...x.allow, ...err.headers }), x.privateHeaders);
  }
};

/** `_fields`: the successful body cut down to the selection; errors keep theirs. */
export const applyFields: Stage = async (x, next) => {
  if (x.query._fields === undefined) return next();
  const answer = await next();
  if (answer.kind !== 'json' || answer.contentType) return answer;
  return { ...answer, body: selectFields(answer.body, x.query._fields) };
};
