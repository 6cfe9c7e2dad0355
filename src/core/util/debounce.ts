/** Runs `action` once, `delayMs` after the last schedule(); dispose() cancels a pending run. */
export class Debouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly action: () => void,
  ) {}

  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.action();
    }, this.delayMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
