import { randomUUID } from 'node:crypto';

/** Time and ids for commands' metadata, the only place the control plane reads either. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

export abstract class IdGenerator {
  abstract next(): string;
}

export class UuidGenerator extends IdGenerator {
  next(): string {
    return randomUUID();
  }
}
