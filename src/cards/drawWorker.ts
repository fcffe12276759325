// A share-card drawing thread, or the child process that draws a build's many cards (see
// CardThreads in threads.ts): answers each request of the thread or process that started it.
import { parentPort } from 'node:worker_threads';
import { answer, type DrawReply, type DrawRequest } from './drawCards';

/** Answers to the thread or process that started this one: a thread's parent port, or a child process's channel. */
const reply = (message: DrawReply) => (parentPort ? parentPort.postMessage(message) : process.send?.(message));

const onRequest = ({ id, request }: { id: number; request: DrawRequest }) => {
  answer(request).then(
    (answered) => reply({ id, ...answered }),
    (error: unknown) => reply({ id, error: error instanceof Error ? error.message : String(error) }),
  );
};
if (parentPort) parentPort.on('message', onRequest);
else process.on('message', onRequest);
