import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import type { Context } from 'hono';
import { findProject } from '../../store/index.ts';
import {
  HostGitError,
  runHostGit,
  streamHostGit,
  workspaceDirectory,
} from '../../workspace/index.ts';
import { respondWithError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';

/** The most a clone's negotiation (the client's wants and haves) may send in one request, after gunzip. */
export const MAX_UPLOAD_PACK_REQUEST_BYTES = 32 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const READ_ONLY =
  'Forja serves a project repository read-only over HTTP (clone and fetch, git-upload-pack); pushing (git-receive-pack) is refused.';

/** One pkt-line of git's protocol: four hex digits of length, then the data. Pure. */
export function pktLine(data: string): string {
  return (Buffer.byteLength(data) + 4).toString(16).padStart(4, '0') + data;
}

/**
 * Git's smart HTTP, read-only (ADR 0356): `git clone http://<forja>/git/<project-id>.git`. Only the two
 * requests of upload-pack; each spawns `git upload-pack --stateless-rpc` on the project's git directory under
 * the host git's pinned rules and time limit, the request streamed to its stdin and its stdout to the
 * response. Who may read is the API's rule (the access middleware runs on /git/ too); an unknown project is 404.
 */
export function gitHttpRoutes({ database, dataDirectory }: AppDependencies) {
  const gitDirOf = async (context: Context): Promise<string | Response> => {
    const repository = context.req.param('repository') ?? '';
    const id = repository.endsWith('.git') ? repository.slice(0, -4).toLowerCase() : '';
    const gitDir = UUID.test(id) ? join(workspaceDirectory(dataDirectory, id), '.git') : null;
    const info = gitDir === null ? null : await lstat(gitDir).catch(() => null);
    if (
      gitDir === null ||
      info === null ||
      !info.isDirectory() ||
      !(await findProject(database, id))
    )
      return respondWithError(
        context,
        404,
        'not_found',
        `No project repository ${repository}.`,
        'id',
      );
    return gitDir;
  };
  return newRouter()
    .get('/git/:repository/info/refs', async (context) => {
      const service = context.req.query('service');
      if (service !== 'git-upload-pack')
        return respondWithError(context, 403, 'read_only', READ_ONLY, 'service');
      const gitDir = await gitDirOf(context);
      if (typeof gitDir !== 'string') return gitDir;
      let refs: string;
      try {
        refs = await runHostGit({ gitDir, workTree: null }, [
          'upload-pack',
          '--stateless-rpc',
          '--advertise-refs',
          '--strict',
          gitDir,
        ]);
      } catch (error) {
        if (!(error instanceof HostGitError)) throw error;
        return respondWithError(context, 503, 'git_failed', 'git upload-pack failed; try again.');
      }
      return new Response(`${pktLine('# service=git-upload-pack\n')}0000${refs}`, {
        headers: {
          'content-type': 'application/x-git-upload-pack-advertisement',
          'cache-control': 'no-cache',
        },
      });
    })
    .post('/git/:repository/git-upload-pack', async (context) => {
      const gitDir = await gitDirOf(context);
      if (typeof gitDir !== 'string') return gitDir;
      const body = context.req.raw.body;
      if (body === null) return respondWithError(context, 400, 'empty_request', 'No request body.');
      const git = streamHostGit({ gitDir, workTree: null }, [
        'upload-pack',
        '--stateless-rpc',
        '--strict',
        gitDir,
      ]);
      const gzipped = (context.req.header('content-encoding') ?? '').toLowerCase() === 'gzip';
      // A client that goes away, a body that is not gzip, or one too large: git is stopped, Forja goes on.
      pipeline(
        [
          Readable.fromWeb(body as WebReadableStream<Uint8Array>),
          ...(gzipped ? [createGunzip()] : []),
          atMost(MAX_UPLOAD_PACK_REQUEST_BYTES),
          git.stdin,
        ],
        (error) => {
          if (error) git.kill();
        },
      );
      const output = Readable.toWeb(git.stdout as Readable) as ReadableStream<Uint8Array>;
      return new Response(cancelKills(output, git.kill), {
        headers: {
          'content-type': 'application/x-git-upload-pack-result',
          'cache-control': 'no-cache',
        },
      });
    })
    .on(['GET', 'POST'], '/git/:repository/git-receive-pack', (context) =>
      respondWithError(context, 403, 'read_only', READ_ONLY),
    );
}

/** Passes at most `maxBytes` on, then fails. */
function atMost(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new Error(`the request is larger than ${maxBytes} bytes`));
      done(null, chunk);
    },
  });
}

/** The stream, with git killed when the client goes away before the end. */
function cancelKills(
  stream: ReadableStream<Uint8Array>,
  kill: () => void,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      kill();
      return reader.cancel();
    },
  });
}
