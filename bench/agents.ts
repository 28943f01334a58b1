// The bench's agents (./call-client.mjs) as a process of their own, asked over IPC.
import { fork } from "node:child_process";
import path from "node:path";

export type StepAnswer = { id?: string; status: string; wall_ms?: number };

export interface Agents {
  /** `tokens` POSTed one after another on one kept-alive connection, or `together`, each on its own. */
  calls(url: string, route: string, body: string, tokens: string[], together: boolean): Promise<number[]>;
  /** One call to its end, as an agent makes it: its time and the step it ended as. */
  run(url: string, token: string, body: string): Promise<{ ms: number; step: StepAnswer }>;
  close(): void;
}

type Answer = { id: number; ms?: number | number[]; step?: StepAnswer; error?: string };

export function startAgents(): Agents {
  const child = fork(path.join(import.meta.dirname, "call-client.mjs"), { stdio: "inherit" });
  const waiting = new Map<number, (answer: Answer) => void>();
  child.on("message", (answer: Answer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let asked = 0;
  const ask = (message: object) =>
    new Promise<Answer>((resolve, reject) => {
      const id = ++asked;
      waiting.set(id, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
      child.send({ id, ...message });
    });
  return {
    async calls(url, route, body, tokens, together) {
      return (await ask({ url, path: route, body, tokens, together })).ms as number[];
    },
    async run(url, token, body) {
      const answer = await ask({ url, run: { token, body } });
      return { ms: answer.ms as number, step: answer.step! };
    },
    close: () => child.connected && child.disconnect(),
  };
}
