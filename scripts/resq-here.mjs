// `npm run resq -- …`: the checkout's resq, run in the folder you typed the command in.
// npm runs scripts from the package root; INIT_CWD is where you stood, so relative paths
// (question files, --db, --out) mean what they say.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
await import('../bin/resq.js');
