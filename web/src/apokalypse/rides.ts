// A horseman's ride read from its public events (the terminal's ride panel does the same,
// cli/ui/apokalypse/panel.py): from the `ride` event to the next round's start, per player the
// protection counted (`shelter`: populaces, protection, passed, dead per side), the reckoning,
// the horseman card handed out, the seals earned and placed, and whether the game ended.
import type { EventMessage } from "../protocol";

export interface RideSide {
  populaces: number;
  protection: number;
  passed: number;
  dead: number;
}

export interface Ride {
  index: number; // the ride event's place in the game's events
  number: number;
  sides: { good: RideSide; evil: RideSide }[]; // by seat
  scores: number[];
  cardTo: number[]; // seats that received the horseman card
  sealsTo: number[];
  sealPopulaces: number;
  over: boolean;
}

function side(value: unknown): RideSide {
  const [populaces = 0, protection = 0, passed = 0, dead = 0] = Array.isArray(value) ? (value as number[]) : [];
  return { populaces, protection, passed, dead };
}

function int(value: unknown, fallback = 0): number {
  return typeof value === "number" ? value : fallback;
}

export function readRides(events: readonly EventMessage[]): Ride[] {
  const rides: Ride[] = [];
  let ride: Ride | null = null;
  for (const [index, event] of events.entries()) {
    const args = event.args as Record<string, unknown>;
    if (event.kind === "ride") {
      ride = { index, number: int(args.number, 1), sides: [], scores: [], cardTo: [], sealsTo: [], sealPopulaces: 0, over: false };
      rides.push(ride);
      continue;
    }
    if (ride === null) continue;
    switch (event.kind) {
      case "shelter":
        ride.sides[int(args.seat)] = { good: side(args.good), evil: side(args.evil) };
        break;
      case "reckoning":
        ride.scores = Array.isArray(args.scores) ? (args.scores as number[]) : [];
        break;
      case "horseman-card":
        ride.cardTo.push(int(args.seat));
        break;
      case "seal-award":
        ride.sealsTo = Array.isArray(args.seats) ? (args.seats as number[]) : [];
        ride.sealPopulaces = int(args.populaces);
        break;
      case "game-over":
        ride.over = true;
        break;
      case "round-start":
        ride = null; // the ride's aftermath is over
        break;
      default:
        break;
    }
  }
  return rides;
}
