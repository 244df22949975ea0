/** A refused request: the message is written for the user, the reason for code. */
export class Refusal<Reason extends string> extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
  ) {
    super(message);
  }
}
