-- The restaurant's staff and suppliers, as a Core Data store would hand them out: each record
-- is known by its object URI (x-coredata://<store>/Contact/p<N>), which is what a contact's
-- URL carries. The store UUID is fixed so that URLs stay valid from one launch to the next.
local STORE = "x-coredata://8C3E6F2A-4B1D-4E7A-9F05-2D6B8A1C3E94/Contact/p"

return {
  { objectID = STORE .. "1", name = "Betty Ross",     role = "Waitress",
    phone = "555-0142", email = "betty@melsdrive-in.com" },
  { objectID = STORE .. "2", name = "Mel Hathaway",   role = "Owner",
    phone = "555-0100", email = "mel@melsdrive-in.com" },
  { objectID = STORE .. "3", name = "Alice Hyatt",    role = "Waitress",
    phone = "555-0163", email = "alice@melsdrive-in.com" },
  { objectID = STORE .. "4", name = "Vera Gorman",    role = "Cook",
    phone = "555-0127", email = "vera@melsdrive-in.com" },
  { objectID = STORE .. "5", name = "Dale Fenwick",   role = "Produce supplier",
    phone = "555-0188", email = "orders@fenwickfarms.example" },
  { objectID = STORE .. "6", name = "Carmen Ortiz",   role = "Pastry chef",
    phone = "555-0119", email = "carmen@melsdrive-in.com" },
}
