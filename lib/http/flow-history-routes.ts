/**
 * The kept versions of the flow file over HTTP (R-ED2): `GET /flow/history` lists them,
 * `GET /flow/history/<version>` gives one's text, and `POST /flow/restore/<version>` brings
 * one back, as a save of its text.
 */
import { Type } from '@sinclair/typebox';
import { FlowVersionListing, saveRefusalFields } from '../core/flow-shapes.ts';
import {
  answerSaved,
  editorsOnly,
  FLOW_TYPE,
  forEditors,
  forVersion,
  later,
  notKept,
  saveAnswered,
  saveErrors,
  who,
} from './flow-handling.ts';
import { JSON5, ok } from './operation-shapes.ts';
import { JSON_TYPE, sendError, sendOk } from './respond.ts';
import type { Route } from './route.ts';

const listVersions = forEditors((res, _req, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const [versions, current] = await Promise.all([flow.history(), flow.read()]);
    // The newest version with the file's text is the current one (a restore makes an older one's text current again).
    const currentAt = versions.findLastIndex((version) => version.etag === current.etag);
    const listed = versions.map((version, at) => ({ ...version, current: at === currentAt }));
    return (res) => sendOk(res, JSON_TYPE, JSON.stringify(listed));
  }),
);

const readVersion = forVersion((res, version, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const text = await flow.versionText(version);
    return (res) =>
      text === undefined ? sendError(res, notKept(version), json) : sendOk(res, FLOW_TYPE, text, [['Cache-Control', 'no-store']]);
  }),
);

const restoreVersion = forVersion((res, version, flow, json, access, context) => {
  const by = who(res, access);
  later(res, json, context, async () => answerSaved(await flow.restore(version, by), json));
});

const versionVariable = {
  name: 'version',
  description: 'A kept version, as `GET /flow/history` lists it.',
  schema: Type.Integer({ minimum: 1 }),
};

export const flowHistoryRoutes: readonly Route[] = [
  {
    path: '/flow/history',
    get: {
      summary: 'List the kept versions',
      description: `The kept versions (the last 20) \`[{version, savedAt, by, bytes, etag, current}]\`, oldest first. ${editorsOnly}`,
      tag: 'flow',
      answers: { 200: ok('The versions.', { [JSON_TYPE]: Type.Array(FlowVersionListing) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
      handle: listVersions,
    },
  },
  {
    path: '/flow/history/:version',
    get: {
      summary: 'Read a kept version',
      description: `One kept version's text. ${editorsOnly}`,
      tag: 'flow',
      variable: versionVariable,
      answers: { 200: ok('The text.', { [JSON5]: Type.String() }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_NOT_FOUND'],
      handle: readVersion,
    },
  },
  {
    path: '/flow/restore/:version',
    post: {
      summary: 'Bring a kept version back',
      description: `A save of the kept version's text, with the answers of \`PUT /flow\`. ${editorsOnly}`,
      tag: 'flow',
      variable: versionVariable,
      answers: { 200: saveAnswered },
      errors: [...saveErrors, 'PB_NOT_FOUND', 'PB_CROSS_ORIGIN'],
      errorFields: saveRefusalFields,
      handle: restoreVersion,
    },
  },
];
