// Times as the desk shows them: 24-hour wall clock in IST, whatever the machine's time zone.
const IST = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `14:32:08 IST` */
export function istClock(epochMs: number): string {
  return `${IST.format(epochMs)} IST`;
}
