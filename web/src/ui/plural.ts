/** A count with its noun, as the screens write them: '1 cell', '1,204 cells'. */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`
}
