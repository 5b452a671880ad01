import { DEFAULT_FCM_BEHAVIOUR, fcmBehaviourPatchSchema, fcmBehaviourSchema, type FcmBehaviour, type FcmBehaviourPatch } from './fcm-behaviour';
import { FCM_ERRORS, fcmErrorBody, type FcmErrorCode, type GoogleErrorBody } from './fcm-errors';
import { rollFcmFailure, tokenOutcome, type FcmOutcome } from './fcm-outcome';

/** The part of an FCM message the mock looks at; the rest is kept as sent. */
export interface FcmMessage {
  token: string;
  notification?: { title?: string; body?: string };
  data?: Record<string, string>;
  android?: { collapse_key?: string; notification?: { tag?: string } };
}

export interface AcceptedPush {
  /** The name FCM answered, `projects/<project>/messages/<id>`. */
  name: string;
  token: string;
  notification?: FcmMessage['notification'];
  data?: FcmMessage['data'];
  /** The Android tag a device replaces an earlier notification of, as it would show them. */
  tag?: string;
  /** Milliseconds since the epoch. */
  acceptedAt: number;
}

export interface TokenCounts {
  accepted: number;
  /** Messages answered with each error. */
  failed: Partial<Record<FcmErrorCode, number>>;
}

export interface FcmAnswer {
  httpStatus: number;
  body: { name: string } | GoogleErrorBody;
}

/** A stand-in for FCM's HTTP v1 send API: slow by a set latency, failing on demand, counting per token. */
export interface MockFcm {
  /** Changes some settings, validated (a bad value throws a ZodError); returns them all. */
  configure(patch: FcmBehaviourPatch): FcmBehaviour;
  config(): FcmBehaviour;
  /** Answers one `messages:send` after the latency; with `validateOnly` nothing is sent or counted, as FCM's dry run. */
  send(project: string, message: FcmMessage, validateOnly: boolean): Promise<FcmAnswer>;
  /** The kept accepted messages, oldest first. */
  messages(token?: string): AcceptedPush[];
  /** Outcomes per token, never trimmed. */
  counts(token?: string): Record<string, TokenCounts>;
  /** Forgets messages and counts; keeps the settings. */
  reset(): void;
}

export function createMockFcm(behaviour: FcmBehaviourPatch = {}): MockFcm {
  return new InMemoryMockFcm(behaviour);
}

class InMemoryMockFcm implements MockFcm {
  private behaviour = DEFAULT_FCM_BEHAVIOUR;
  private unregistered = new Set<string>();
  private kept: AcceptedPush[] = [];
  private readonly byToken = new Map<string, TokenCounts>();
  private sequence = 0;

  constructor(behaviour: FcmBehaviourPatch) {
    this.configure(behaviour);
  }

  configure(patch: FcmBehaviourPatch): FcmBehaviour {
    const changes = Object.entries(fcmBehaviourPatchSchema.parse(patch)).filter(([, value]) => value !== undefined);
    this.behaviour = fcmBehaviourSchema.parse({ ...this.behaviour, ...Object.fromEntries(changes) });
    this.unregistered = new Set(this.behaviour.unregisteredTokens);
    this.keepLatest();
    return this.config();
  }

  config(): FcmBehaviour {
    return structuredClone(this.behaviour);
  }

  async send(project: string, message: FcmMessage, validateOnly: boolean): Promise<FcmAnswer> {
    // Decided on arrival, so a scripted failure goes to the first message that comes for the token.
    const outcome = validateOnly ? 'accepted' : this.decide(message.token);
    // Unreferenced: an answer still waiting must not keep a closing process alive.
    await new Promise((resolve) => setTimeout(resolve, this.behaviour.latencyMs).unref());
    if (validateOnly) return { httpStatus: 200, body: { name: `projects/${project}/messages/fake_message_id` } };
    // Counted when answered, so what the mock records is what clients were told.
    const counts = this.countsOf(message.token);
    if (outcome !== 'accepted') {
      counts.failed[outcome] = (counts.failed[outcome] ?? 0) + 1;
      return { httpStatus: FCM_ERRORS[outcome].httpStatus, body: fcmErrorBody(outcome) };
    }
    counts.accepted += 1;
    const name = `projects/${project}/messages/${++this.sequence}`;
    this.kept.push({
      name,
      token: message.token,
      notification: message.notification,
      data: message.data,
      tag: message.android?.notification?.tag,
      acceptedAt: Date.now(),
    });
    this.keepLatest();
    return { httpStatus: 200, body: { name } };
  }

  messages(token?: string): AcceptedPush[] {
    return token === undefined ? [...this.kept] : this.kept.filter((push) => push.token === token);
  }

  counts(token?: string): Record<string, TokenCounts> {
    const entries = token === undefined ? [...this.byToken] : [...this.byToken].filter(([counted]) => counted === token);
    return Object.fromEntries(entries.map(([counted, counts]) => [counted, { accepted: counts.accepted, failed: { ...counts.failed } }]));
  }

  reset(): void {
    this.kept = [];
    this.byToken.clear();
  }

  private decide(token: string): FcmOutcome {
    const script = this.behaviour.failNext[token];
    const scripted = script?.shift();
    if (script?.length === 0) delete this.behaviour.failNext[token];
    return tokenOutcome(token, scripted, this.unregistered) ?? rollFcmFailure(this.behaviour);
  }

  private countsOf(token: string): TokenCounts {
    let counts = this.byToken.get(token);
    if (!counts) this.byToken.set(token, (counts = { accepted: 0, failed: {} }));
    return counts;
  }

  private keepLatest(): void {
    if (this.kept.length > this.behaviour.keepMessages) this.kept.splice(0, this.kept.length - this.behaviour.keepMessages);
  }
}
