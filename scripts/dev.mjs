// npm run dev: the API server with reload (tsx watch) on :8080 and Vite with hot reload on :5173,
// which proxies /api and /dev to the server. Open http://127.0.0.1:5173.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { LOG_LEVEL: 'warn', ...process.env, PORT: process.env.PORT ?? '8080' },
  }),
  spawn(bin('vite'), ['--host', '127.0.0.1', '--port', '5173'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
