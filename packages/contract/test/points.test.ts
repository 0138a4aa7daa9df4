import { describe, expect, it } from 'vitest';
import {
  checkinReward,
  checkinView,
  currentStreak,
  nextStreak,
  previousUtcDay,
  utcDay,
} from '../src/points.ts';

describe('points rule', () => {
  it('a UTC day starts at 00:00:00 UTC', () => {
    expect(utcDay(new Date(Date.UTC(2026, 0, 31, 23, 59, 59, 999)))).toBe('2026-01-31');
    expect(utcDay(new Date(Date.UTC(2026, 1, 1, 0, 0, 0)))).toBe('2026-02-01');
    expect(previousUtcDay('2026-03-01')).toBe('2026-02-28');
    expect(previousUtcDay('2028-03-01')).toBe('2028-02-29');
    expect(previousUtcDay('2027-01-01')).toBe('2026-12-31');
  });

  it.each([
    [null, '2026-05-10', 1],
    [{ day: '2026-05-09', streak: 3 }, '2026-05-10', 4],
    [{ day: '2026-05-08', streak: 3 }, '2026-05-10', 1],
    [{ day: '2026-04-30', streak: 6 }, '2026-05-01', 7],
  ] as const)('a check-in after %j on %s makes a streak of %i', (last, today, streak) => {
    expect(nextStreak(last, today)).toBe(streak);
  });

  it('the streak shown counts while today or yesterday was checked in, and is 0 after a missed day', () => {
    expect(currentStreak(null, '2026-05-10')).toBe(0);
    expect(currentStreak({ day: '2026-05-10', streak: 5 }, '2026-05-10')).toBe(5);
    expect(currentStreak({ day: '2026-05-09', streak: 5 }, '2026-05-10')).toBe(5);
    expect(currentStreak({ day: '2026-05-08', streak: 5 }, '2026-05-10')).toBe(0);
  });

  it.each([
    [1, 0],
    [6, 0],
    [7, 50],
    [8, 0],
    [14, 50],
    [21, 50],
  ])('a check-in making a streak of %i gives 10 points and a bonus of %i', (streak, bonus) => {
    expect(checkinReward(streak)).toEqual({ checkin: 10, bonus, total: 10 + bonus });
  });

  it('the card: today’s reward and the days until the next bonus', () => {
    expect(checkinView(null, '2026-05-10')).toEqual({
      checkedInToday: false,
      streak: 0,
      todayReward: 10,
      nextBonusInDays: 6,
    });
    expect(checkinView({ day: '2026-05-09', streak: 6 }, '2026-05-10')).toEqual({
      checkedInToday: false,
      streak: 6,
      todayReward: 60,
      nextBonusInDays: 0,
    });
    expect(checkinView({ day: '2026-05-10', streak: 7 }, '2026-05-10')).toEqual({
      checkedInToday: true,
      streak: 7,
      todayReward: 60,
      nextBonusInDays: 7,
    });
    expect(checkinView({ day: '2026-05-10', streak: 2 }, '2026-05-10')).toEqual({
      checkedInToday: true,
      streak: 2,
      todayReward: 10,
      nextBonusInDays: 5,
    });
  });
});
