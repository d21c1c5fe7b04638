"""The seating engine: seat letters (``letters``) and the zero-repeat schedules (``designs``)."""
