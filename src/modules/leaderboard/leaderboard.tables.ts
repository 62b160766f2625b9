/** How many ranked players hold each score: a rank is 1 + the players on higher scores. */
export interface LeaderboardScoresTable {
  score_hundredths: number;
  players: number;
}
