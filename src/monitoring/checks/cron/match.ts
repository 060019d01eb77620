// Which wall-clock times a schedule matches, as cronsim's match_dom / match_dow / match_day.
// A "wall" is a local date-time written as if it were UTC milliseconds.
import { LAST, LAST_WEEKDAY, type CronSpec } from './parse.ts';

const DAY = 86_400_000;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
  /** 0 (Sunday) .. 6 */
  weekday: number;
}

let memoDay = NaN;
let memoDate: CalendarDate = { year: 0, month: 0, day: 0, weekday: 0 };

/** The calendar date of a wall time (memoised: the walk asks about one day many times). */
export function dateOf(wall: number): CalendarDate {
  const dayNumber = Math.floor(wall / DAY);
  if (dayNumber !== memoDay) {
    const d = new Date(dayNumber * DAY);
    memoDate = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
    memoDay = dayNumber;
  }
  return memoDate;
}

const timeOfDay = (wall: number): number => wall - Math.floor(wall / DAY) * DAY;
export const hourOf = (wall: number): number => Math.floor(timeOfDay(wall) / 3_600_000);
export const minuteOf = (wall: number): number => Math.floor(timeOfDay(wall) / 60_000) % 60;
export const secondOf = (wall: number): number => Math.floor(timeOfDay(wall) / 1000) % 60;

export function startOfDay(wall: number): number {
  return Math.floor(wall / DAY) * DAY;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date of the last Monday-to-Friday day of a month. */
function lastWeekday(year: number, month: number): number {
  const last = daysInMonth(year, month);
  const dow = new Date(Date.UTC(year, month - 1, last)).getUTCDay();
  return dow === 0 ? last - 2 : dow === 6 ? last - 1 : last;
}

function matchDom(spec: CronSpec, date: number): boolean {
  const { year, month, day } = dateOf(date);
  if (spec.days.has(day)) return true;
  if (spec.days.has(LAST_WEEKDAY) && day >= 26 && day === lastWeekday(year, month)) return true;
  return spec.days.has(LAST) && day >= 28 && day === daysInMonth(year, month);
}

function matchDow(spec: CronSpec, date: number): boolean {
  const { year, month, day, weekday } = dateOf(date);
  // cronsim's dow is 1 (Monday) .. 7 (Sunday); "0" and "7" both mean Sunday.
  const dow = weekday || 7;
  const alt = dow % 7;
  if (spec.weekdays.has(dow) || spec.weekdays.has(alt)) return true;
  if ((spec.lastWeekdays.has(dow) || spec.lastWeekdays.has(alt)) && day + 7 > daysInMonth(year, month)) return true;
  const nth = Math.floor((day + 6) / 7);
  return spec.nthWeekdays.has(dow * 10 + nth) || spec.nthWeekdays.has(alt * 10 + nth);
}

export function matchDay(spec: CronSpec, date: number): boolean {
  return spec.dayAnd ? matchDom(spec, date) && matchDow(spec, date) : matchDom(spec, date) || matchDow(spec, date);
}

/** Minute, hour, month and day all match (the second is the caller's business). */
export function matchesWall(spec: CronSpec, wall: number): boolean {
  return (
    spec.minutes.has(minuteOf(wall)) &&
    spec.hours.has(hourOf(wall)) &&
    spec.months.has(dateOf(wall).month) &&
    matchDay(spec, startOfDay(wall))
  );
}
