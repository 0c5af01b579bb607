# Pseudo-random words for the inputs the heap programs generate
# (cmark.sh, jsoncpp.sh): one seed and one set of syllables, so that an
# input repeats byte for byte. Loaded before each generator's own program
# (awk -f words.awk -f ...), whose BEGIN runs after this one.
function rnd(m) { seed = (seed * 16807) % 2147483647; return seed % m }
function word(  k, w) {
  w = ""
  for (k = 1 + rnd(3); k > 0; k--) w = w syl[1 + rnd(nsyl)]
  return w
}
BEGIN {
  seed = 20240611
  nsyl = split("ka lo mi ne ru sa ti vo be da fe gu ha ji ko pa re zu", syl, " ")
}
