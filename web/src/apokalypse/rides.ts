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

function side([populaces = 0, protection = 0, passed = 0, dead = 0]: readonly number[]): RideSide {
  return { populaces, protection, passed, dead };
}

export function readRides(events: readonly EventMessage[]): Ride[] {
  const rides: Ride[] = [];
  let ride: Ride | null = null;
  for (const [index, event] of events.entries()) {
    if (event.kind === "ride") {
      ride = { index, number: event.args.number, sides: [], scores: [], cardTo: [], sealsTo: [], sealPopulaces: 0, over: false };
      rides.push(ride);
      continue;
    }
    if (ride === null) continue;
    switch (event.kind) {
      case "shelter":
        ride.sides[event.args.seat] = { good: side(event.args.good), evil: side(event.args.evil) };
        break;
      case "reckoning":
        ride.scores = event.args.scores;
        break;
      case "horseman-card":
        ride.cardTo.push(event.args.seat);
        break;
      case "seal-award":
        ride.sealsTo = event.args.seats;
        ride.sealPopulaces = event.args.populaces;
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
