-- busted's shuffle, for a block's tests and blocks (wayfinder.spec) and for the files of a run
-- (`wayfinder test --shuffle`): Lua's generator seeded with `seed`, then each place from the last
-- down swapped with one at or before it, so a seed gives the order busted gives. Shuffles `list`
-- in place and answers it.
local randomseed, random = math.randomseed, math.random

return function(list, seed)
  randomseed(seed)
  for n = #list, 2, -1 do
    local k = random(n)
    list[n], list[k] = list[k], list[n]
  end
  return list
end
