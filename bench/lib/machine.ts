import os from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  takenAt: string;
  /** 1-minute load average when the run started and ended: above the CPU count means others were busy too. */
  loadAverage: { start: number; end?: number };
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    takenAt: new Date().toISOString(),
    loadAverage: { start: round(os.loadavg()[0]!) },
  };
}

export function finishMachine(machine: Machine): Machine {
  return { ...machine, loadAverage: { ...machine.loadAverage, end: round(os.loadavg()[0]!) } };
}

const round = (value: number) => Math.round(value * 100) / 100;
